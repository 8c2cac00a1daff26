import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createSlackRenderer } from '../src/render/renderer.js';
import { slack } from '../src/index.js';
import { SLACK_LIMITS } from '../src/render/limits.js';
import { slackMessageProblems } from '../src/render/guards.js';
import type { SlackBlock } from '../src/render/payload.js';

type Loose = { type: string; block_id?: string; title?: string; status?: string; task_id?: string; tasks?: { task_id: string; title: string; status: string }[]; elements?: { text?: string }[] };
const loose = (blocks: readonly SlackBlock[] | undefined) => (blocks ?? []) as unknown as Loose[];
const ofType = (blocks: readonly SlackBlock[] | undefined, type: string) => loose(blocks).filter((b) => b.type === type);
const named = (blocks: readonly SlackBlock[] | undefined, name: string) => loose(blocks).find((b) => b.block_id?.split('.')[0] === name);

const start = { type: 'run.started', title: 'Deploy', at: 0 };
const plan = (statuses: string[]) => ({ type: 'plan.updated', items: statuses.map((status, i) => ({ text: `Step ${i + 1}`, status })), at: 10 });
/** `n` shell calls, call `i` started at 100 + i; all finished but the last (running) and call 1 (failed). */
function tools(n: number): ScriptedEvent[] {
  const events: ScriptedEvent[] = [];
  for (let i = 0; i < n; i += 1) {
    events.push({ type: 'tool.started', callId: `c${i}`, name: 'shell', args: `{"command":"make step${i}"}`, at: 100 + i * 10 });
    if (i === 1) events.push({ type: 'tool.finished', callId: `c${i}`, summary: 'exit 2', isError: true, at: 105 + i * 10 });
    else if (i < n - 1) events.push({ type: 'tool.finished', callId: `c${i}`, summary: 'ok', at: 105 + i * 10 });
  }
  return events;
}

describe('Slack AI blocks in an edited message (plan, task_card)', () => {
  it('the plan is a plan block of its items (complete / in_progress / pending, never `completed`); the tool calls stay a section beside it', () => {
    const message = createSlackRenderer().render(viewAfterEvents([start, plan(['completed', 'in_progress', 'pending']), ...tools(2)], { locale: 'en' }));
    const [block] = ofType(message.blocks, 'plan');
    expect(block!.title).toBe('Plan · 1 / 3');
    expect(block!.tasks).toEqual([
      { task_id: 'plan_1', title: 'Step 1', status: 'complete' },
      { task_id: 'plan_2', title: 'Step 2', status: 'in_progress' },
      { task_id: 'plan_3', title: 'Step 3', status: 'pending' },
    ]);
    expect(ofType(message.blocks, 'task_card')).toEqual([]);
    expect(named(message.blocks, 'tools')?.type).toBe('section');
    expect(slackMessageProblems(message)).toEqual([]);
  });

  it('without a plan, the latest 8 tool calls are task cards (running in_progress, failed error, done complete), the earlier ones counted', () => {
    const message = createSlackRenderer().render(viewAfterEvents([start, ...tools(10)], { locale: 'en' }));
    const cards = ofType(message.blocks, 'task_card');
    expect(cards.map((c) => c.task_id)).toEqual(['c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    expect(cards.map((c) => c.status)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'in_progress']);
    expect(cards[0]!.title).toMatch(/make step2/);
    expect(named(message.blocks, 'tools')!.elements![0]!.text).toMatch(/2 earlier/);
    const failed = createSlackRenderer().render(viewAfterEvents([start, ...tools(3)], { locale: 'en' }));
    expect(ofType(failed.blocks, 'task_card').map((c) => c.status)).toEqual(['complete', 'error', 'in_progress']);
    expect(slackMessageProblems(message)).toEqual([]);
  });

  it('a task card whose call changed gets a new block_id; one that did not keeps it', () => {
    const renderer = createSlackRenderer();
    const before = renderer.render(viewAfterEvents([start, ...tools(3)], { locale: 'en' })).blocks;
    const after = renderer.render(viewAfterEvents([start, ...tools(3), { type: 'tool.finished', callId: 'c2', summary: 'done', at: 200 }], { locale: 'en' })).blocks;
    const idOf = (blocks: readonly SlackBlock[] | undefined, taskId: string) => ofType(blocks, 'task_card').find((c) => c.task_id === taskId)!.block_id;
    expect(idOf(after, 'c2')).not.toBe(idOf(before, 'c2'));
    expect(idOf(after, 'c0')).toBe(idOf(before, 'c0'));
    expect(ofType(after, 'task_card').find((c) => c.task_id === 'c2')!.status).toBe('complete');
  });

  it('falls back to mrkdwn sections when the blocks would pass Slack limits: a 51-item plan, task cards past the block count', () => {
    const long = createSlackRenderer().render(viewAfterEvents([start, plan(Array.from({ length: 51 }, () => 'pending'))], { locale: 'en' }));
    expect(ofType(long.blocks, 'plan')).toEqual([]);
    expect(named(long.blocks, 'plan')!.type).toBe('section');
    const crowded = createSlackRenderer({ limits: { ...SLACK_LIMITS, maxBlocks: 10 } }).render(viewAfterEvents([start, ...tools(10)], { locale: 'en' }));
    expect(ofType(crowded.blocks, 'task_card')).toEqual([]);
    expect(named(crowded.blocks, 'tools')!.type).toBe('section');
    expect(crowded.blocks!.length).toBeLessThanOrEqual(10);
  });

  it('aiBlocks: false draws the plan and tools as sections and tables preformatted', () => {
    const message = createSlackRenderer({ aiBlocks: false }).render(viewAfterEvents([start, plan(['pending']), ...tools(2), { type: 'answer.delta', text: '| a | b |\n|---|---|\n| 1 | 2 |', at: 300 }], { locale: 'en' }));
    expect(loose(message.blocks).filter((b) => ['plan', 'task_card', 'table'].includes(b.type))).toEqual([]);
    const config = { botToken: 'xoxb-test', channel: 'C0TEST' };
    const view = viewAfterEvents([start, plan(['pending'])], { locale: 'en' });
    expect(ofType(slack({ ...config, aiBlocks: false }).renderer.render(view).blocks, 'plan')).toEqual([]);
    expect(ofType(slack(config).renderer.render(view).blocks, 'plan')).toHaveLength(1);
  });
});
