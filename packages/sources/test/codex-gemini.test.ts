import { describe, expect, it } from 'vitest';
import { collect, linesStream, ofType } from './helpers.js';

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

const rollout = (seconds: number, type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: iso(seconds), type, payload });
const tokens = (seconds: number, input: number, output: number): string =>
  rollout(seconds, 'event_msg', {
    type: 'token_count',
    info: { total_token_usage: { input_tokens: input, output_tokens: output }, last_token_usage: { total_tokens: input + output }, model_context_window: 258400 },
  });

describe('codex-rollout', () => {
  it('finishes a call at the later of its output stamp and start + reported duration', async () => {
    const { events } = await collect(
      linesStream([
        rollout(0, 'event_msg', { type: 'user_message', message: '# Context from my IDE setup:\n\n## My request for Codex:\nfix the build' }),
        rollout(0.1, 'turn_context', { model: 'gpt-test' }),
        rollout(1, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","make"]}', call_id: 'old' }),
        rollout(1, 'response_item', { type: 'function_call_output', call_id: 'old', output: '{"output":"built\\n","metadata":{"exit_code":2,"duration_seconds":1.5}}' }),
        rollout(3, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'new' }),
        rollout(8, 'response_item', { type: 'function_call_output', call_id: 'new', output: 'Chunk ID: 1\nWall time: 1.0 seconds\nProcess exited with code 0\nOutput:\nfile-a\n' }),
      ]),
    );
    expect(ofType(events, 'run.started')[0]).toMatchObject({ title: 'fix the build', model: 'gpt-test', at: T0 });
    expect(ofType(events, 'tool.finished').map(({ callId, at, summary, isError }) => ({ callId, at, summary, isError }))).toEqual([
      { callId: 'old', at: T0 + 2500, summary: 'built', isError: true },
      { callId: 'new', at: T0 + 8000, summary: 'file-a', isError: undefined },
    ]);
    expect(ofType(events, 'tool.started')[0]!.args).toBe('{"command":["bash","-lc","make"]}');
  });

  it('sends token_count differences once (repeated totals send nothing) and ends on turn_aborted', async () => {
    const { events } = await collect(
      linesStream([
        rollout(0, 'event_msg', { type: 'task_started', model_context_window: 258400 }),
        rollout(0, 'event_msg', { type: 'user_message', message: 'go' }),
        rollout(1, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Plan**' }] }),
        rollout(1, 'response_item', { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
        tokens(1.1, 1000, 50),
        rollout(2, 'response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }),
        tokens(2.1, 1000, 50),
        rollout(3, 'response_item', { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c2' }),
        tokens(3.1, 2500, 80),
        rollout(4, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
      ]),
    );
    expect(ofType(events, 'usage').map(({ inputTokens, outputTokens, contextTokens, contextWindow }) => ({ inputTokens, outputTokens, contextTokens, contextWindow }))).toEqual([
      { inputTokens: 1000, outputTokens: 50, contextTokens: 1050, contextWindow: 258400 },
      { inputTokens: 1500, outputTokens: 30, contextTokens: 2580, contextWindow: 258400 },
    ]);
    expect(ofType(events, 'round.started')).toHaveLength(2);
    expect(ofType(events, 'thinking.delta')[0]!.text).toBe('**Plan**');
    expect(events.at(-1)!.event).toEqual({ type: 'run.cancelled', at: T0 + 4000, reason: 'interrupted' });
    expect(ofType(events, 'tool.finished').at(-1)).toMatchObject({ callId: 'c2', isError: true });
  });
});

describe('codex-rollout 0.163+', () => {
  // The shape Codex CLI 0.163 writes (recorded from the real binary against a local mock model):
  // no `user_message`; the prompt is an `item_completed` event with a `UserMessage` item.
  it('titles the run from the item_completed UserMessage', async () => {
    const { events } = await collect(
      linesStream([
        rollout(0, 'event_msg', { type: 'task_started', turn_attribution: { turn_id: 't1' } }),
        rollout(0.1, 'turn_context', { model: 'gpt-5.5-codex' }),
        rollout(0.2, 'event_msg', { type: 'item_completed', thread_id: 'th', turn_id: 't1', item: { type: 'UserMessage', id: 'u1', content: [{ type: 'text', text: 'Run sleep', text_elements: [] }] } }),
        rollout(1, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"sleep 1 && echo done"}', call_id: 'c1' }),
        rollout(2, 'response_item', { type: 'function_call_output', call_id: 'c1', output: 'Chunk ID: 1\nWall time: 0.9 seconds\nProcess exited with code 0\nOutput:\ndone\n' }),
        rollout(3, 'event_msg', { type: 'task_complete', last_agent_message: 'All done.' }),
      ]),
    );
    expect(ofType(events, 'run.started')).toEqual([expect.objectContaining({ title: 'Run sleep', model: 'gpt-5.5-codex' })]);
    expect(events.at(-1)!.event).toMatchObject({ type: 'run.completed', answer: 'All done.' });
  });
});

describe('codex-exec', () => {
  it('reads prefixed and unprefixed events; a failed command is an error; turn.failed fails the run', async () => {
    const { events, errors } = await collect(
      linesStream([
        '[2025-01-01T10:00:00.000Z] [INFO] {"type":"thread.started","thread_id":"t"}',
        '[2025-01-01T10:00:00.100Z] [INFO] {"type":"turn.started"}',
        '[2025-01-01T10:00:01.000Z] [INFO] {"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Look**"}}',
        '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
        '[2025-01-01T10:00:03.000Z] [INFO] {"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"no such dir\\n","exit_code":2,"status":"failed"}}',
        '[2025-01-01T10:00:04.000Z] [INFO] {"type":"item.completed","item":{"id":"item_2","type":"file_change","changes":[{"path":"/x/main.v","kind":"add"}],"status":"completed"}}',
        '[2025-01-01T10:00:05.000Z] [INFO] {"type":"error","message":"stream disconnected"}',
        '[2025-01-01T10:00:06.000Z] [INFO] {"type":"turn.failed","error":{"message":"model overloaded"}}',
      ]),
    );
    expect(errors).toEqual([]);
    expect(ofType(events, 'tool.started').map(({ callId, name, at }) => ({ callId, name, at }))).toEqual([
      { callId: 'item_1', name: 'exec_command', at: T0 + 1000 },
      { callId: 'item_2', name: 'file_change', at: T0 + 4000 },
    ]);
    expect(ofType(events, 'tool.finished').map(({ callId, summary, isError }) => ({ callId, summary, isError }))).toEqual([
      { callId: 'item_1', summary: 'no such dir', isError: true },
      { callId: 'item_2', summary: 'add main.v', isError: undefined },
    ]);
    expect(events.at(-1)!.event).toEqual({ type: 'run.failed', at: T0 + 6000, error: 'model overloaded' });
  });
});

describe('gemini-chat', () => {
  const header = JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: iso(0), lastUpdated: iso(0), kind: 'main' });
  const user = (seconds: number, text: string, display?: unknown[]): string =>
    JSON.stringify({ id: `u${seconds}`, timestamp: iso(seconds), type: 'user', content: [{ text }], ...(display ? { displayContent: display } : {}) });
  const gemini = (seconds: number, extra: Record<string, unknown>): string =>
    JSON.stringify({ id: 'g1', timestamp: iso(seconds), type: 'gemini', content: '', model: 'gemini-test', tokens: { input: 100, output: 10, thoughts: 5, total: 115 }, ...extra });

  it('adds only what a rewritten message adds, and marks failed calls', async () => {
    const thoughts = [{ subject: 'Reading', description: 'the files', timestamp: iso(1) }];
    const call = (status: string) => ({ id: 'c1', name: 'read_file', args: { file_path: 'a.md' }, status, timestamp: iso(3), result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { error: 'File not found: a.md' } } }] });
    const { events, errors } = await collect(
      linesStream([
        header,
        user(0, 'You are an agent that …', [{ text: '/init' }]),
        JSON.stringify({ $set: { lastUpdated: iso(0) } }),
        gemini(2, { thoughts }),
        gemini(2, { thoughts, toolCalls: [call('error')] }),
        user(4, 'System: Please continue.', [{ functionResponse: { id: 'c1', name: 'read_file', response: {} } }]),
        JSON.stringify({ id: 'g2', timestamp: iso(5), type: 'gemini', content: 'Nothing to read.', model: 'gemini-test' }),
        JSON.stringify({ id: 'e', timestamp: iso(6), type: 'error', content: 'Quota exceeded' }),
      ]),
    );
    expect(errors).toEqual([]);
    expect(ofType(events, 'run.started')).toEqual([{ type: 'run.started', at: T0, title: '/init', model: 'gemini-test' }]);
    expect(ofType(events, 'thinking.delta')).toEqual([{ type: 'thinking.delta', at: T0 + 1000, text: 'Reading\nthe files' }]);
    expect(ofType(events, 'usage')).toHaveLength(1);
    expect(ofType(events, 'usage')[0]).toMatchObject({ inputTokens: 100, outputTokens: 15, contextTokens: 115 });
    expect(ofType(events, 'tool.finished')).toEqual([{ type: 'tool.finished', at: T0 + 3000, callId: 'c1', summary: 'File not found: a.md', isError: true }]);
    expect(ofType(events, 'round.started')).toHaveLength(2);
    expect(events.at(-1)!.event).toEqual({ type: 'run.failed', at: T0 + 6000, error: 'Quota exceeded' });
  });
});

describe('codex exec: times from Codex own log lines', () => {
  it('uses the time of the agent log line before events that carry none', async () => {
    const { events } = await collect(
      linesStream([
        '2025-11-01T14:44:29.000000Z  INFO codex_exec: starting',
        '{"type":"turn.started"}',
        '2025-11-01T14:44:43.500000Z  INFO codex_core: turn done',
        '{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}',
      ]),
      { format: 'codex-exec' },
    );
    const started = ofType(events, 'run.started')[0]!;
    const completed = ofType(events, 'run.completed')[0]!;
    expect(started.at).toBe(Date.parse('2025-11-01T14:44:29Z'));
    expect(completed.at! - started.at!).toBe(14_500);
  });

  it('shows an MCP result by its text, not its raw JSON', async () => {
    const item = { id: 'm1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, status: 'completed' };
    const result = { content: [{ type: 'text', text: 'Found 3 pages\nmore' }], structured_content: null };
    const { events } = await collect(
      linesStream([
        '{"type":"turn.started"}',
        JSON.stringify({ type: 'item.started', item }),
        JSON.stringify({ type: 'item.completed', item: { ...item, result } }),
        '{"type":"turn.completed","usage":{}}',
      ]),
    );
    expect(ofType(events, 'tool.finished')[0]!.summary).toBe('Found 3 pages');
  });
});
