import { describe, expect, it } from 'vitest';
import { fitToolTree, toolTree, toolTreeRows } from '../../src/card/tool-tree.js';
import { viewAfterEvents, type ScriptedEvent } from '../../src/testing/index.js';

const start = (at: number, callId: string, name: string, parentCallId?: string): ScriptedEvent => ({
  type: 'tool.started',
  at,
  callId,
  name,
  args: { command: callId },
  ...(parentCallId ? { parentCallId } : {}),
});
const finish = (at: number, callId: string): ScriptedEvent => ({ type: 'tool.finished', at, callId, summary: 'ok' });

const run: ScriptedEvent[] = [
  { type: 'run.started', at: 0, title: 'Research' },
  start(1000, 'read1', 'Read'),
  finish(1500, 'read1'),
  start(2000, 'task1', 'Task'),
  start(3000, 'a', 'Task › Bash', 'task1'),
  finish(4000, 'a'),
  start(5000, 'b', 'Task › Grep', 'task1'),
  finish(6000, 'b'),
  start(7000, 'c', 'Task › Read', 'task1'),
];

describe('toolTree', () => {
  it('puts a running subagent\'s calls under its line, open, without the subagent name in front', () => {
    const view = viewAfterEvents(run, { locale: 'en', lookAtMs: 9000 });
    const tree = toolTree(view.tools, { maxChildren: 2 });
    expect(tree.entries.map((entry) => entry.line.callId)).toEqual(['read1', 'task1']);
    const task = tree.entries[1]!;
    expect(task).toMatchObject({ subagent: true, open: true, hiddenChildren: 1 });
    expect(task.children.map((child) => child.callId)).toEqual(['b', 'c']);
    expect(toolTreeRows(tree, 'en').map((row) => [row.depth, row.text])).toEqual([
      [0, 'Read: `read1` (done · ok)'],
      [0, 'Task: `task1` (running · 7s · 3 tools)'],
      [1, '…1 earlier call of this subagent'],
      [1, 'Grep: `b` (done · ok)'],
      [1, 'Read: `c` (running · 2s)'],
    ]);
  });

  it('folds a done subagent to one line with its run time and tool count', () => {
    const view = viewAfterEvents([...run, finish(8000, 'c'), finish(32_000, 'task1'), start(33_000, 'ls', 'Bash')], { locale: 'en', lookAtMs: 34_000 });
    const tree = toolTree(view.tools);
    expect(tree.entries[1]).toMatchObject({ subagent: true, open: false });
    expect(toolTreeRows(tree, 'zh-CN').map((row) => row.text)).toEqual(['Read: `read1` (done · ok)', 'Task: `task1` (done · 30s · ok · 3 tools)', 'Bash: `ls` (running · 1s)']);
  });

  it('keeps a subagent before plain calls when entries are left out, and counts the calls they held', () => {
    const events = [...run, finish(8000, 'c'), finish(9000, 'task1')];
    for (let i = 0; i < 5; i++) events.push(start(10_000 + i * 1000, `p${i}`, 'Bash'), finish(10_500 + i * 1000, `p${i}`));
    const tree = toolTree(viewAfterEvents(events, { locale: 'en' }).tools, { maxEntries: 3 });
    expect(tree.entries.map((entry) => entry.line.callId)).toEqual(['task1', 'p3', 'p4']);
    expect(tree.older.map((entry) => entry.line.callId)).toEqual(['read1', 'p0', 'p1', 'p2']);
    expect(tree.olderCalls).toBe(4);
  });

  it('fitToolTree drops earlier entries whole until the text fits', () => {
    const view = viewAfterEvents(run, { locale: 'en', lookAtMs: 9000 });
    const render = (tree: ReturnType<typeof toolTree>) => toolTreeRows(tree, 'en').map((row) => row.text).join('\n');
    const all = render(toolTree(view.tools));
    const fitted = fitToolTree(view.tools, {}, render, all.length - 1);
    expect(fitted.startsWith('Task: `task1`')).toBe(true);
  });
});
