/**
 * The plan checklist, the changed files and the liveness note as each platform draws them, from one
 * scripted view: Feishu Card JSON 2.0 (checked by the emulator's card rules), DingTalk card markdown
 * (documented subset: `*` bullets, no inline code) and Slack Block Kit.
 */
import { describe, expect, it } from 'vitest';
import type { CardView } from '@progresscard/core';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { checkFeishuCardContent } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { dingtalk } from '@progresscard/plugin-dingtalk';
// The Slack plugin has no time-zone option (its footer uses the process's): its renderer is made directly.
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';

const T0 = Date.UTC(2026, 0, 1, 4, 3, 0);
const feishuRenderer = feishu({ appId: 'cli_render_only', appSecret: 'render-only', receiveId: 'oc_render', timeZone: 'UTC' }).renderer;
const dingtalkRenderer = dingtalk({
  appKey: 'dingrenderonly',
  appSecret: 'render-only',
  cardTemplateId: 'render-only.schema',
  target: { type: 'group', openConversationId: 'cidRender==' },
  timeZone: 'UTC',
}).renderer;
const slackRenderer = createSlackRenderer({ timeZone: 'UTC' });

const plan = (statuses: string[]): ScriptedEvent => ({
  type: 'plan.updated',
  at: 1000,
  items: statuses.map((status, i) => ({ text: `Step ${i + 1} <at id=all>`, status })),
} as ScriptedEvent);

const script: ScriptedEvent[] = [
  { type: 'run.started', at: 0, title: 'Fix the build', locale: 'en' },
  plan(['completed', 'completed', 'completed', 'in_progress', 'pending']),
  { type: 'tool.started', at: 2000, callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
];
const files = Array.from({ length: 10 }, (_, i): ScriptedEvent => ({ type: 'file.changed', at: 3000 + i, path: `/tmp/work/src/file${i}.ts`, added: 12, removed: i }));

function render(view: CardView): { feishu: string; dingtalk: string; slack: string } {
  const card = feishuRenderer.render(view);
  expect(checkFeishuCardContent(JSON.stringify(card))).toMatchObject({ ok: true });
  return {
    feishu: JSON.stringify(card),
    dingtalk: dingtalkRenderer.render(view).cardParamMap.msgContent!,
    slack: JSON.stringify(slackRenderer.render(view)),
  };
}

describe('card sections on every channel', () => {
  it('a running card shows the plan checklist with "3 / 5" and the marks, agent text escaped', () => {
    const out = render(viewAfterEvents(script, { startAt: T0 }));
    for (const text of [out.feishu, out.dingtalk]) {
      expect(text).toContain('Plan · 3 / 5');
      expect(text).toContain('✅ Step 1');
      expect(text).toContain('▶ Step 4');
      expect(text).toContain('○ Step 5');
      expect(text).not.toContain('<at id=all>');
    }
    for (const text of Object.values(out)) expect(text).not.toMatch(/file\d\.ts/);
    expect(out.dingtalk).toMatch(/^\* ✅ Step 1/m);
    // Slack draws the plan as its own `plan` block: each step's state as Slack's task status. Task titles
    // are plain text (https://docs.slack.dev/reference/block-kit/blocks/plan-block/), so the agent's text shows
    // as written and cannot mention anyone.
    const slackPlan = (JSON.parse(out.slack) as { blocks: Array<{ type: string; title?: string; tasks?: Array<{ title: string; status: string }> }> }).blocks.find((block) => block.type === 'plan');
    expect(slackPlan?.title).toBe('Plan · 3 / 5');
    expect(slackPlan?.tasks?.map((task) => task.status)).toEqual(['complete', 'complete', 'complete', 'in_progress', 'pending']);
    expect(slackPlan?.tasks?.[0]?.title).toBe('Step 1 <at id=all>');
  });

  it('the final card keeps the plan and sums up the changed files, folded when long', () => {
    const view = viewAfterEvents([...script, ...files, { type: 'run.completed', at: 5000, answer: 'Done.' }], { startAt: T0 });
    const out = render(view);
    for (const text of Object.values(out)) {
      expect(text).toContain('Plan · 3 / 5');
      expect(text).toContain('10 files changed');
      // The shared work-tree directory is left out; counts per file.
      expect(text).toContain('src/file1.ts (+12 −1)');
      expect(text).not.toContain('/tmp/work/');
    }
    expect(out.feishu).toContain('"changed_files_panel"');
    expect(out.dingtalk).toContain('…and 2 more');
    expect(out.slack).toContain('…and 2 more');
  });

  it('a running card quiet for the quiet period says since when; the note goes with the next event', () => {
    const quiet = render(viewAfterEvents(script, { startAt: T0, lookAtMs: 2000 + 60_000 }));
    for (const text of Object.values(quiet)) expect(text).toContain('No new progress since 04:03');
    const busy = render(viewAfterEvents(script, { startAt: T0, lookAtMs: 2000 + 30_000 }));
    for (const text of Object.values(busy)) expect(text).not.toContain('No new progress');
  });
});
