import { describe, expect, it } from 'vitest';
import { bundledTraces } from '../src/index.js';
import { fileChangesFromCall, patchChanges, planFromCall } from '../src/tool-effects.js';
import { collect, ofType } from './helpers.js';

const trace = (name: string) => bundledTraces().find((t) => t.name === name)!.path;

describe('plan tool calls', () => {
  it('reads Claude TodoWrite, Codex update_plan and Gemini write_todos items and states', () => {
    expect(planFromCall('TodoWrite', JSON.stringify({ todos: [{ content: 'Read', status: 'completed', activeForm: 'Reading' }, { content: 'Fix', status: 'in_progress' }] }))).toEqual([
      { text: 'Read', status: 'completed' },
      { text: 'Fix', status: 'in_progress' },
    ]);
    expect(planFromCall('update_plan', { plan: [{ step: 'Scan', status: 'pending' }], explanation: 'x' })).toEqual([{ text: 'Scan', status: 'pending' }]);
    expect(planFromCall('write_todos', { todos: [{ description: 'Drop', status: 'cancelled' }, { description: 'Keep', status: 'pending' }] })).toEqual([{ text: 'Keep', status: 'pending' }]);
  });

  it('leaves other calls, and plan calls whose arguments cannot be read, as tool lines', () => {
    expect(planFromCall('Bash', { todos: [] })).toBeUndefined();
    expect(planFromCall('TodoWrite', '{"todos":[{"content":"Re')).toBeUndefined();
  });
});

describe('file changes of tool calls', () => {
  it('Write counts the lines written; Edit and MultiEdit the lines that differ', () => {
    expect(fileChangesFromCall('Write', { file_path: 'a.ts', content: 'x\ny\nz\n' })).toEqual([{ path: 'a.ts', added: 3 }]);
    expect(fileChangesFromCall('Edit', { file_path: 'a.ts', old_string: 'keep\nold\nkeep2', new_string: 'keep\nnew1\nnew2\nkeep2' })).toEqual([{ path: 'a.ts', added: 2, removed: 1 }]);
    expect(fileChangesFromCall('MultiEdit', { file_path: 'b.md', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c\nd', new_string: '' }] })).toEqual([{ path: 'b.md', added: 1, removed: 3 }]);
    expect(fileChangesFromCall('Task › Edit', { file_path: 'c.ts', old_string: 'a', new_string: 'b' })).toEqual([{ path: 'c.ts', added: 1, removed: 1 }]);
    expect(fileChangesFromCall('replace', { file_path: 'GEMINI.md', old_string: 'a', new_string: 'b\nc' })).toEqual([{ path: 'GEMINI.md', added: 2, removed: 1 }]);
    expect(fileChangesFromCall('Read', { file_path: 'a.ts' })).toEqual([]);
  });

  it('apply_patch counts per file, with adds, moves and deletes', () => {
    const patch = ['*** Begin Patch', '*** Add File: docs/new.md', '+# New', '+', '*** Update File: src/a.ts', '*** Move to: src/b.ts', '@@', ' keep', '-old', '+new', '+more', '*** Delete File: old.txt', '*** End Patch'].join('\n');
    expect(patchChanges(patch)).toEqual([
      { path: 'docs/new.md', kind: 'added', added: 2, removed: 0 },
      { path: 'src/b.ts', kind: 'modified', added: 2, removed: 1 },
      { path: 'old.txt', kind: 'deleted' },
    ]);
    expect(fileChangesFromCall('apply_patch', patch)).toHaveLength(3);
    expect(fileChangesFromCall('shell', { command: ['apply_patch', patch] })).toEqual([]);
    expect(fileChangesFromCall('apply_patch', { input: patch })).toHaveLength(3);
  });

  it('Codex exec file_change items give paths and kinds', () => {
    expect(fileChangesFromCall('file_change', JSON.stringify({ changes: [{ path: '/w/main.v', kind: 'add' }, { path: '/w/x', kind: 'update' }] }))).toEqual([
      { path: '/w/main.v', kind: 'added' },
      { path: '/w/x', kind: 'modified' },
    ]);
  });
});

describe('file changes in the bundled traces', () => {
  it('Codex rollout: patch_apply_end gives the files with counts; a failed patch counts nothing', async () => {
    const { events } = await collect(trace('codex-rollout-plain.jsonl'));
    const files = ofType(events, 'file.changed');
    expect(files).toContainEqual(expect.objectContaining({ path: '/home/user/gai/claude-code/docs/RELEASE_NOTES.md', kind: 'added', added: 3 }));
    expect(files).toContainEqual(expect.objectContaining({ path: '/home/user/gai/claude-code/core/version.go', added: 1, removed: 1 }));
    expect(files.map((file) => file.path)).not.toContain('/home/user/gai/claude-code/should_not_count.txt');
  });

  it('Codex exec: completed file_change items', async () => {
    const { events } = await collect(trace('codex-exec-json.log'));
    expect(ofType(events, 'file.changed')).toContainEqual(expect.objectContaining({ path: '/tmp/gh-issue-solver-1762008239822/main.v', kind: 'added' }));
  });

  it('Claude: successful Edit / MultiEdit / Write calls, none for failed ones', async () => {
    const { events } = await collect(trace('claude-session-parallel-tasks.jsonl'));
    const files = ofType(events, 'file.changed');
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((file) => file.path.endsWith('CLAUDE.md'))).toBe(true);
    const failed = new Set(ofType(events, 'tool.finished').filter((e) => e.isError).map((e) => e.callId));
    const started = ofType(events, 'tool.started').filter((e) => failed.has(e.callId) && /Edit|Write/.test(e.name));
    // Every file.changed follows a successful finish of its call: as many changes as successful writes at most.
    const writes = ofType(events, 'tool.started').filter((e) => /^(Task › )?(Edit|MultiEdit|Write)$/.test(e.name)).length;
    expect(files.length).toBeLessThanOrEqual(writes - started.length);
  });

  it('Gemini: write_file and replace', async () => {
    const { events } = await collect(trace('gemini-chat-cancelled.jsonl'));
    expect(ofType(events, 'file.changed').map((file) => file.path)).toContain('GEMINI.md');
  });
});
