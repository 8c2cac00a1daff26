/**
 * The agent's reasoning on every channel: a section headed with the thinking time, open while the
 * agent thinks and folded once it answers. Feishu folds natively (Card JSON 2.0 `collapsible_panel`,
 * checked by the emulator's card rules); Slack Block Kit and DingTalk card markdown have no fold, so
 * they keep the header ("Thought for 12s") and drop the text.
 */
import { describe, expect, it } from 'vitest';
import type { CardView } from '@progresscard/core';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { checkFeishuCardContent } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';

const feishuRenderer = feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC' }).renderer;
const dingtalkRenderer = dingtalk({
  appKey: 'dingrenderonly',
  appSecret: 'render-only',
  cardTemplateId: 'render-only.schema',
  target: { type: 'group', openConversationId: 'cidRender==' },
  timeZone: 'UTC',
}).renderer;
const slackRenderer = createSlackRenderer({ timeZone: 'UTC' });

const REASONING = 'The flaky test depends on the wall clock; pinning it should fix the race.';
const thinking: ScriptedEvent[] = [
  { type: 'run.started', at: 0, title: 'Fix the flaky test' },
  { type: 'thinking.delta', at: 4000, text: REASONING },
];
const answered: ScriptedEvent[] = [
  ...thinking,
  { type: 'tool.started', at: 12_000, callId: 'c1', name: 'shell', args: { command: 'npm test' } },
  { type: 'tool.finished', at: 14_000, callId: 'c1', summary: '212 passed' },
  { type: 'run.completed', at: 15_000, answer: 'Pinned the clock; the test is stable.' },
];

function feishuPanel(view: CardView): Record<string, unknown> {
  const card = feishuRenderer.render(view);
  expect(checkFeishuCardContent(JSON.stringify(card))).toMatchObject({ ok: true });
  const panel = (card as unknown as { body: { elements: Record<string, unknown>[] } }).body.elements.find((e) => e.element_id === 'thinking_panel');
  expect(panel).toBeDefined();
  return panel!;
}

describe('collapsible reasoning on every channel', () => {
  it('while the agent thinks: open, with the time so far', () => {
    const view = viewAfterEvents(thinking, { locale: 'en', lookAtMs: 9000 });
    expect(view).toMatchObject({ thinkingNow: true, thinkingMs: 9000 });
    expect(feishuPanel(view)).toMatchObject({ tag: 'collapsible_panel', expanded: true, header: { title: { content: '💭 Thinking… 9s' } } });
    expect(JSON.stringify(feishuPanel(view))).toContain('wall clock');
    const slack = JSON.stringify(slackRenderer.render(view));
    expect(slack).toContain('💭 Thinking… 9s');
    expect(slack).toContain('wall clock');
    const dingtalk = dingtalkRenderer.render(view).cardParamMap.msgContent!;
    expect(dingtalk).toContain('💭 Thinking… 9s');
    expect(dingtalk).toContain('wall clock');
  });

  it('after the answer: folded under "Thought for 12s" (the time from the event before it to the next tool call)', () => {
    const view = viewAfterEvents(answered, { locale: 'en' });
    expect(view).toMatchObject({ thinkingNow: false, thinkingMs: 12_000 });
    const panel = feishuPanel(view);
    expect(panel).toMatchObject({ expanded: false, header: { title: { content: '💭 Thought for 12s' } } });
    // Folded, not gone: the reader can open it.
    expect(JSON.stringify(panel)).toContain('wall clock');
    for (const shown of [JSON.stringify(slackRenderer.render(view)), dingtalkRenderer.render(view).cardParamMap.msgContent!]) {
      expect(shown).toContain('💭 Thought for 12s');
      expect(shown).not.toContain('wall clock');
    }
  });

  it('in Chinese: 思考了 12 秒', () => {
    const view = viewAfterEvents(answered, { locale: 'zh-CN' });
    expect(feishuPanel(view)).toMatchObject({ header: { title: { content: '💭 思考了 12 秒' } } });
    expect(dingtalkRenderer.render(view).cardParamMap.msgContent!).toContain('💭 思考了 12 秒');
    expect(JSON.stringify(slackRenderer.render(view))).toContain('💭 思考了 12 秒');
  });
});
