/**
 * OpenCode-fork streams: a mid-run `error` the agent recovers from ("socket connection closed",
 * then more steps and tool calls for minutes) is a note, not the end of the run; `todowrite` calls
 * whose `todos` is JSON text are the plan. Event shapes as in the bundled
 * more/opencode-agent-json-events.log (OpenCode `run --format json`).
 */
import { describe, expect, it } from 'vitest';
import { collect, linesStream, ofType } from './helpers.js';

const T0 = Date.parse('2026-01-30T14:00:00.000Z');
const event = (seconds: number, type: string, fields: Record<string, unknown> = {}) => JSON.stringify({ type, timestamp: T0 + seconds * 1000, sessionID: 'ses_1', ...fields });
const tool = (seconds: number, callID: string, name: string, input: unknown, output = 'ok') =>
  event(seconds, 'tool_use', { part: { callID, tool: name, state: { status: 'completed', input, output, time: { start: T0 + seconds * 1000, end: T0 + seconds * 1000 + 500 } } } });
const step = (seconds: number, reason?: string) => (reason ? event(seconds, 'step_finish', { part: { reason, tokens: { input: 10, output: 5 } } }) : event(seconds, 'step_start', { part: {} }));

describe('opencode-json: errors the agent recovers from, todowrite as the plan', () => {
  it('an error followed by more steps and tool calls is a note; the run goes on and completes', async () => {
    const { events } = await collect(
      linesStream([
        step(0),
        tool(1, 'c1', 'bash', { command: 'npm test' }),
        step(2, 'tool-calls'),
        event(3, 'error', { error: 'socket connection closed' }),
        step(60),
        tool(61, 'c2', 'read', { filePath: 'src/a.ts' }),
        step(62, 'tool-calls'),
        step(63),
        event(64, 'text', { part: { messageID: 'm3', text: 'Fixed.' } }),
        step(65, 'stop'),
      ]),
    );
    const ends = events.filter((item) => item.event.type.startsWith('run.') && item.event.type !== 'run.started').map((item) => item.event);
    expect(ends).toEqual([expect.objectContaining({ type: 'run.completed', answer: 'Fixed.' })]);
    expect(ofType(events, 'tool.started').map((e) => e.callId)).toEqual(['c1', 'c2']);
    expect(ofType(events, 'thinking.delta').map((e) => e.text).join('')).toContain('socket connection closed');
  });

  it('an error that nothing follows still fails the run', async () => {
    const { events } = await collect(linesStream([step(0), tool(1, 'c1', 'bash', { command: 'ls' }), event(2, 'error', { error: 'The operation timed out.' }), event(3, 'text', { part: { messageID: 'm1', text: 'partial' } }), step(4, 'other')]));
    expect(ofType(events, 'run.failed').map((e) => e.error)).toEqual(['The operation timed out.']);
  });

  it('todowrite with its todos as JSON text is the plan, not a tool line', async () => {
    const todos = JSON.stringify([{ content: 'Read the issue', status: 'completed' }, { content: 'Fix it', status: 'in_progress' }]);
    const { events } = await collect(linesStream([step(0), tool(1, 't1', 'todowrite', { todos }, todos), step(2, 'stop')]));
    expect(ofType(events, 'tool.started')).toEqual([]);
    expect(ofType(events, 'plan.updated').map((e) => e.items)).toEqual([[{ text: 'Read the issue', status: 'completed' }, { text: 'Fix it', status: 'in_progress' }]]);
  });
});
