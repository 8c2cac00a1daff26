/**
 * Case F26 (faults round 4): OpenAI-compatible upstreams such as DashScope send the whole text so
 * far as each "delta". The card shows the answer once, in the core's view and on every channel;
 * a genuine repeat ("ha" + "ha") stays. Events copied from the case file (from the report
 * openclaw/openclaw#74143; see also QwenLM/qwen-code#3896).
 */
import { describe, expect, it } from 'vitest';
import type { CardView } from '@progresscard/core';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';

const ANSWER = 'The build failed because the lockfile is stale. Run npm install and commit it.';
const F26: ScriptedEvent[] = [
  { at: 0, type: 'run.started', title: 'Why did CI fail?', locale: 'en' },
  { at: 100, type: 'answer.delta', text: 'The build' },
  { at: 400, type: 'answer.delta', text: 'The build failed because' },
  { at: 700, type: 'answer.delta', text: 'The build failed because the lockfile is stale.' },
  { at: 1000, type: 'answer.delta', text: ANSWER },
  { at: 1300, type: 'run.completed' },
];

const renderers = {
  feishu: (view: CardView) => JSON.stringify(feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC' }).renderer.render(view)),
  dingtalk: (view: CardView) =>
    dingtalk({ appKey: 'dingrenderonly', appSecret: 'render-only', cardTemplateId: 'render-only.schema', target: { type: 'group', openConversationId: 'cidRender==' }, timeZone: 'UTC' }).renderer.render(view).cardParamMap.msgContent!,
  slack: (view: CardView) => JSON.stringify(createSlackRenderer({ timeZone: 'UTC' }).render(view)),
};

const count = (text: string, part: string) => text.split(part).length - 1;

describe('cumulative snapshots sent as deltas (F26)', () => {
  it('the core view holds the answer once', () => {
    const view = viewAfterEvents(F26);
    expect(view.answer).toBe(ANSWER);
  });

  for (const [channel, render] of Object.entries(renderers)) {
    it(`${channel}: the final card shows the answer once`, () => {
      const text = render(viewAfterEvents(F26));
      expect(count(text, 'lockfile is stale')).toBe(1);
      expect(count(text, 'The build')).toBe(1);
    });
  }

  it('thinking snapshots are recognised too', () => {
    const view = viewAfterEvents([
      { at: 0, type: 'run.started' },
      { at: 10, type: 'thinking.delta', text: 'Reading the log' },
      { at: 20, type: 'thinking.delta', text: 'Reading the log, then the lockfile' },
      { at: 30, type: 'answer.delta', text: 'Done' },
    ]);
    expect(view.thinking).toBe('Reading the log, then the lockfile');
  });

  it('a genuine repeat stays: "ha" + "ha" is "haha", and incremental deltas are untouched', () => {
    expect(viewAfterEvents([{ at: 0, type: 'run.started' }, { at: 1, type: 'answer.delta', text: 'ha' }, { at: 2, type: 'answer.delta', text: 'ha' }, { at: 3, type: 'run.completed' }]).answer).toBe('haha');
    const words = ['The ', 'build ', 'failed ', 'because ', 'the ', 'build ', 'failed.'];
    const view = viewAfterEvents([{ at: 0, type: 'run.started' }, ...words.map((text, i): ScriptedEvent => ({ at: i + 1, type: 'answer.delta', text })), { at: 20, type: 'run.completed' }]);
    expect(view.answer).toBe(words.join(''));
  });

  it('after a tool call the next message starts afresh: its first snapshot is not cut against the text before', () => {
    const view = viewAfterEvents([
      { at: 0, type: 'run.started' },
      { at: 1, type: 'answer.delta', text: 'Checking.' },
      { at: 2, type: 'answer.delta', text: 'Checking. One moment' },
      { at: 3, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"ls"}' },
      { at: 4, type: 'tool.finished', callId: 'c1', summary: 'ok' },
      { at: 5, type: 'answer.delta', text: 'Checking. It is fine' },
      { at: 6, type: 'answer.delta', text: 'Checking. It is fine.' },
      { at: 7, type: 'run.completed' },
    ]);
    expect(view.answer).toBe('Checking. One moment\n\nChecking. It is fine.');
  });
});
