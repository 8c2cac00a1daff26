/**
 * No secret of a well-known shape reaches a rendered card on any channel (Feishu Card JSON 2.0,
 * DingTalk card markdown, Slack Block Kit), wherever the agent put it: the title, a tool call's
 * arguments or output, thinking, the answer, a question or the error; and ordinary technical text
 * comes through untouched.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets, type CardView } from '@progresscard/core';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';
import { ORDINARY_SAMPLES, SECRET_SAMPLES } from './secret-corpus.js';

const feishuRenderer = feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC' }).renderer;
const dingtalkRenderer = dingtalk({
  appKey: 'dingrenderonly',
  appSecret: 'render-only',
  cardTemplateId: 'render-only.schema',
  target: { type: 'group', openConversationId: 'cidRender==' },
  timeZone: 'UTC',
}).renderer;
const slackRenderer = createSlackRenderer({ timeZone: 'UTC' });

function renderAll(view: CardView): Record<string, string> {
  return {
    feishu: JSON.stringify(feishuRenderer.render(view)),
    dingtalk: JSON.stringify(dingtalkRenderer.render(view)),
    slack: JSON.stringify(slackRenderer.render(view)),
  };
}

/** The sample in every spot a run can put text, as a running card (question open) and as a final one. */
function views(text: string): CardView[] {
  const running: ScriptedEvent[] = [
    { type: 'run.started', at: 0, title: text, locale: 'en' },
    { type: 'thinking.delta', at: 100, text },
    { type: 'tool.started', at: 200, callId: 'c1', name: 'shell', args: { command: text } },
    { type: 'tool.finished', at: 300, callId: 'c1', summary: text },
    { type: 'tool.started', at: 400, callId: 'c2', name: 'shell', args: JSON.stringify({ command: text }) },
    { type: 'plan.updated', at: 450, items: [{ text, status: 'in_progress' }] },
    { type: 'interaction.requested', at: 500, id: 'q1', kind: 'approval', prompt: `Run ${text}?`, options: [{ id: 'yes', label: 'Yes' }] },
  ] as ScriptedEvent[];
  return [
    viewAfterEvents(running),
    viewAfterEvents([...running, { type: 'answer.delta', at: 600, text }, { type: 'run.completed', at: 700, answer: `Done. ${text}` }] as ScriptedEvent[]),
    viewAfterEvents([...running, { type: 'run.failed', at: 700, error: text }] as ScriptedEvent[]),
  ];
}

describe('secrets never reach a rendered card', () => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.shape, sample] as const))('%s', (_shape, sample) => {
    for (const view of views(sample.text)) {
      for (const [channel, rendered] of Object.entries(renderAll(view))) {
        expect(rendered, `${channel} (${view.status})`).not.toContain(sample.secret);
        // JSON escapes (a newline as \n) must not hide a leak either.
        expect(rendered, `${channel} (${view.status})`).not.toContain(JSON.stringify(sample.secret).slice(1, -1));
      }
    }
  });
});

describe('ordinary text is not redacted', () => {
  it.each(ORDINARY_SAMPLES.map((text) => [text.slice(0, 60), text] as const))('%s', (_head, text) => {
    expect(redactSecrets(text)).toBe(text);
    const final = views(text)[1]!;
    expect(final.title).toBe(text);
    expect(final.tools[0]!.summary).toBe(text);
    expect(JSON.stringify(final)).not.toContain('[redacted]');
  });
});
