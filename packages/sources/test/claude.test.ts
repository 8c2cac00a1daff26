import { describe, expect, it } from 'vitest';
import { createTraceLineReader, SUBAGENT_SEPARATOR } from '../src/index.js';
import { collect, linesStream, ofType } from './helpers.js';

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

/** A Claude transcript line. */
function line(type: 'user' | 'assistant', seconds: number | undefined, message: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type, sessionId: 's', uuid: `u${Math.random()}`, ...(seconds === undefined ? {} : { timestamp: iso(seconds) }), message, ...extra });
}
const prompt = (seconds: number, text: string): string => line('user', seconds, { role: 'user', content: text });
const assistant = (seconds: number | undefined, id: string, content: unknown[], usage: Record<string, number> = { input_tokens: 10, output_tokens: 1 }): string =>
  line('assistant', seconds, { id, model: 'claude-test', role: 'assistant', content, usage });
const toolUse = (id: string, name = 'Bash', input: unknown = { command: `echo ${id}` }) => ({ type: 'tool_use', id, name, input });
const result = (seconds: number, id: string, content: string, isError = false): string =>
  line('user', seconds, { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] });

describe('claude-transcript', () => {
  it('counts usage once per message id, with the largest values its lines report', async () => {
    const { events } = await collect(
      linesStream([
        prompt(0, 'do it'),
        assistant(1, 'msg_1', [{ type: 'thinking', thinking: 'hmm' }], { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 }),
        assistant(2, 'msg_1', [{ type: 'text', text: 'Working.' }], { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 5 }),
        assistant(3, 'msg_1', [toolUse('t1')], { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 9 }),
        result(4, 't1', 'ok'),
        assistant(5, 'msg_2', [{ type: 'text', text: 'Done.' }], { input_tokens: 1, cache_read_input_tokens: 130, output_tokens: 4 }),
      ]),
    );
    expect(ofType(events, 'usage').map(({ inputTokens, outputTokens, contextTokens }) => ({ inputTokens, outputTokens, contextTokens }))).toEqual([
      { inputTokens: 123, outputTokens: 9, contextTokens: 132 },
      { inputTokens: 131, outputTokens: 4, contextTokens: 135 },
    ]);
    expect(ofType(events, 'round.started').map((event) => event.round)).toEqual([1, 2]);
    expect(ofType(events, 'run.completed')[0]!.answer).toBe('Done.');
  });

  it('ends the turn at stop_reason end_turn with no tool call running (Claude Code 2.1.x), as soon as that line is read', () => {
    const stopped = (seconds: number, id: string, content: unknown[], stop: string) =>
      line('assistant', seconds, { id, model: 'claude-test', role: 'assistant', content, stop_reason: stop, usage: { input_tokens: 10, output_tokens: 1 } });
    const reader = createTraceLineReader('claude-transcript');
    const ended = (text: string) => reader.pushLine(text).some((item) => item.kind === 'event' && item.event.type === 'run.completed');
    expect(ended(prompt(0, 'run the tests'))).toBe(false);
    // A tool call waiting for its result does not end the turn.
    expect(ended(stopped(1, 'msg_1', [toolUse('t1')], 'tool_use'))).toBe(false);
    expect(ended(result(5, 't1', 'ok'))).toBe(false);
    const items = reader.pushLine(stopped(6, 'msg_2', [{ type: 'text', text: 'All green.' }], 'end_turn'));
    expect(items.flatMap((item) => (item.kind === 'event' && item.event.type === 'run.completed' ? [item.event] : []))).toEqual([{ type: 'run.completed', at: T0 + 6000, answer: 'All green.' }]);
    expect(reader.end()).toEqual([]);
  });

  it('carries the image blocks of a tool result (a screenshot) into tool.finished images', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';
    const { events } = await collect(
      linesStream([
        prompt(0, 'take a screenshot'),
        assistant(1, 'msg_1', [toolUse('s1', 'mcp__browser__screenshot', {})]),
        line('user', 2, {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 's1', content: [
            { type: 'text', text: 'Captured the page' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
          ] }],
        }),
      ]),
    );
    const [finished] = ofType(events, 'tool.finished');
    expect(finished).toMatchObject({ callId: 's1', summary: expect.stringContaining('Captured the page'), images: [{ data: png, mediaType: 'image/png' }] });
  });

  it('matches parallel calls by id when their results come back in another order', async () => {
    const { events } = await collect(
      linesStream([
        prompt(0, 'three at once'),
        assistant(1, 'msg_1', [toolUse('a')]),
        assistant(1.1, 'msg_1', [toolUse('b')]),
        assistant(1.2, 'msg_1', [toolUse('c')]),
        result(3, 'c', 'result of c'),
        result(4, 'a', 'result of a', true),
        result(5, 'b', 'result of b'),
      ]),
    );
    const finished = ofType(events, 'tool.finished').map(({ callId, summary, isError, at }) => ({ callId, summary, isError, at }));
    expect(finished).toEqual([
      { callId: 'c', summary: 'result of c', isError: undefined, at: T0 + 3000 },
      { callId: 'a', summary: 'result of a', isError: true, at: T0 + 4000 },
      { callId: 'b', summary: 'result of b', isError: undefined, at: T0 + 5000 },
    ]);
  });

  it('starts a run per typed prompt, skips local commands and cancels on an interruption', async () => {
    const { events } = await collect(
      linesStream([
        prompt(0, 'first question'),
        assistant(1, 'msg_1', [toolUse('t1')]),
        result(2, 't1', 'rejected', true),
        line('user', 2.1, { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] }),
        prompt(3, '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>'),
        prompt(3, '<local-command-stdout>(no content)</local-command-stdout>'),
        prompt(10, '<command-name>/review</command-name>\n<command-args>the parser</command-args>'),
        prompt(10, 'Review the code the user names.'),
        assistant(12, 'msg_2', [{ type: 'text', text: 'Looks fine.' }]),
      ]),
    );
    const runs = ofType(events, 'run.started');
    expect(runs.map((event) => [event.title, event.at])).toEqual([
      ['first question', T0],
      ['/review the parser', T0 + 10_000],
    ]);
    expect(events.filter((item) => item.event.type.startsWith('run.') && item.event.type !== 'run.started').map((item) => [item.run, item.event.type])).toEqual([
      [1, 'run.cancelled'],
      [2, 'run.completed'],
    ]);
  });

  it('shows a subagent (isSidechain or agent_progress) as tool activity of its Task call', async () => {
    const { events } = await collect(
      linesStream([
        prompt(0, 'delegate'),
        assistant(1, 'msg_1', [toolUse('task1', 'Task', { description: 'look around', prompt: 'look' })]),
        line('user', 1.5, { role: 'user', content: 'look' }, { isSidechain: true }),
        line('assistant', 2, { id: 'msg_sub', role: 'assistant', content: [{ type: 'text', text: 'sub text' }, toolUse('s1', 'Read', { file_path: 'a.ts' })], usage: { input_tokens: 50, output_tokens: 5 } }, { isSidechain: true }),
        line('user', 3, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 's1', content: 'file a' }] }, { isSidechain: true }),
        JSON.stringify({
          type: 'progress',
          timestamp: iso(4),
          sessionId: 's',
          parentToolUseID: 'task1',
          data: { type: 'agent_progress', message: { type: 'assistant', message: { id: 'msg_sub2', content: [toolUse('s2', 'Bash')], usage: { input_tokens: 60, output_tokens: 6 } } } },
        }),
        JSON.stringify({
          type: 'progress',
          timestamp: iso(5),
          sessionId: 's',
          parentToolUseID: 'task1',
          data: { type: 'agent_progress', message: { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 's2', content: 'ran' }] } } },
        }),
        result(6, 'task1', 'Subagent report'),
        assistant(7, 'msg_2', [{ type: 'text', text: 'All done.' }]),
      ]),
    );
    expect(ofType(events, 'tool.started').map((event) => event.name)).toEqual(['Task', `Task${SUBAGENT_SEPARATOR}Read`, `Task${SUBAGENT_SEPARATOR}Bash`]);
    expect(ofType(events, 'tool.finished').map((event) => event.callId)).toEqual(['s1', 's2', 'task1']);
    expect(ofType(events, 'answer.delta').map((event) => event.text).join('')).not.toContain('sub text');
    const subUsage = ofType(events, 'usage').filter((event) => event.inputTokens === 50 || event.inputTokens === 60);
    expect(subUsage).toHaveLength(2);
    for (const usage of subUsage) expect(usage.contextTokens).toBeUndefined();
  });

  it('ends a run whose recording stops while calls run as interrupted (in the card language), leaving the calls open; lines without a time reuse the last', async () => {
    const lines = [prompt(0, 'run it'), assistant(1, 'msg_1', [toolUse('t1')]), assistant(undefined, 'msg_1', [toolUse('t2', 'Grep')])];
    const { events } = await collect(linesStream(lines));
    const started = ofType(events, 'tool.started');
    expect(started.map((event) => event.at)).toEqual([T0 + 1000, T0 + 1000]);
    expect(ofType(events, 'run.failed')).toEqual([]);
    expect(ofType(events, 'run.cancelled')[0]!.reason).toBe('已中断：记录在 Bash, Grep 运行时结束');
    // Not closed as done or failed: the card marks them interrupted.
    expect(ofType(events, 'tool.finished')).toEqual([]);
    const english = await collect(linesStream(lines), { locale: 'en' });
    expect(ofType(english.events, 'run.cancelled')[0]!.reason).toBe('interrupted: the recording ends while Bash, Grep runs');
    expect(ofType(english.events, 'run.started')[0]!.locale).toBe('en');
  });

  it('titles a harness-injected <task-notification> prompt by its summary, never by markup', async () => {
    const notification = '<task-notification>\n<task-id>b0be39e</task-id>\n<status>completed</status>\n<summary>Background command "npm test" completed (exit code 0)</summary>\n</task-notification>';
    const { events } = await collect(linesStream([prompt(0, notification), assistant(1, 'msg_1', [{ type: 'text', text: 'Tests pass.' }])]));
    expect(ofType(events, 'run.started')[0]!.title).toBe('Background command "npm test" completed (exit code 0)');
  });

  it('reads a subagent transcript on its own (every line isSidechain) as its own run', async () => {
    const side = { isSidechain: true, agentId: 'a1' };
    const { events } = await collect(
      linesStream([
        line('user', 0, { role: 'user', content: 'Count the TODOs' }, side),
        line('assistant', 1, { id: 'msg_1', model: 'claude-test', role: 'assistant', content: [toolUse('t1', 'Grep')], usage: { input_tokens: 5, output_tokens: 1 } }, side),
        line('user', 2, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '12 matches' }] }, side),
        line('assistant', 3, { id: 'msg_2', model: 'claude-test', role: 'assistant', content: [{ type: 'text', text: '12 TODOs.' }], usage: { input_tokens: 6, output_tokens: 2 } }, side),
      ]),
    );
    expect(ofType(events, 'run.started').map((event) => event.title)).toEqual(['Count the TODOs']);
    expect(ofType(events, 'tool.started').map((event) => event.name)).toEqual(['Grep']);
    expect(ofType(events, 'run.completed')[0]!.answer).toBe('12 TODOs.');
  });

  it('skips the zero usage of a synthetic API-error message, so the context size stays', async () => {
    const { events } = await collect(
      linesStream([
        prompt(0, 'go'),
        assistant(1, 'msg_1', [{ type: 'text', text: 'Working.' }], { input_tokens: 1000, output_tokens: 10 }),
        line('assistant', 2, { id: 'msg_2', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'API Error: overloaded' }], usage: { input_tokens: 0, output_tokens: 0 } }),
      ]),
    );
    expect(ofType(events, 'usage').map((event) => event.contextTokens)).toEqual([1010]);
  });
});

describe('claude-stream-json', () => {
  const init = { type: 'system', subtype: 'init', session_id: 's', model: 'claude-test', tools: [] };
  const message = (id: string, content: unknown[], parent: string | null = null) => ({
    type: 'assistant',
    message: { id, model: 'claude-test', role: 'assistant', content, usage: { input_tokens: 10, output_tokens: 2 } },
    parent_tool_use_id: parent,
    session_id: 's',
  });

  it('reads raw lines (time of reading), and ends with the result after its duration_ms', async () => {
    const before = Date.now();
    const { events, errors } = await collect(
      linesStream([
        JSON.stringify(init),
        JSON.stringify(message('m1', [{ type: 'text', text: 'Hi.' }, toolUse('t1')])),
        JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }, session_id: 's' }),
        JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'Final answer.', duration_ms: 5000, session_id: 's', modelUsage: { 'claude-test': { contextWindow: 200000 } } }),
      ]),
    );
    expect(errors).toEqual([]);
    for (const { event } of events) expect(event.at!).toBeGreaterThanOrEqual(before);
    expect(events.at(-1)!.event).toMatchObject({ type: 'run.completed', answer: 'Final answer.' });
    expect(ofType(events, 'usage').some((event) => event.contextWindow === 200000)).toBe(true);
    expect(ofType(events, 'run.started')[0]).toMatchObject({ model: 'claude-test' });
    // Read times span milliseconds; the result's duration_ms keeps the run's real length.
    expect(events.at(-1)!.event.at! - events[0]!.event.at!).toBe(5000);
  });

  it('reads a wrapper log: prefixes, pretty-printed events, long lines cut into prefixed chunks, subagents, an error result', async () => {
    const pretty = JSON.stringify(message('m1', [toolUse('task1', 'Task', { prompt: 'x' })]), null, 2).split('\n');
    const long = JSON.stringify(message('m2', [toolUse('s1', 'Read', { file_path: 'x'.repeat(50) })], 'task1'));
    const cut = 40;
    const { events, errors } = await collect(
      linesStream([
        'Solution draft log',
        `[2025-01-01T10:00:00.000Z] [INFO] ${JSON.stringify(init)}`,
        '[2025-01-01T10:00:00.500Z] [INFO] 📌 a wrapper line',
        `[2025-01-01T10:00:01.000Z] [INFO] ${pretty[0]}`,
        ...pretty.slice(1),
        `[2025-01-01T10:00:02.000Z] [INFO] ${long.slice(0, cut)}`,
        `[2025-01-01T10:00:02.010Z] [INFO] ${long.slice(cut)}`,
        `[2025-01-01T10:00:03.000Z] [INFO] ${JSON.stringify({ type: 'result', subtype: 'error_during_execution', is_error: true, session_id: 's', errors: ['boom'] })}`,
      ]),
    );
    expect(errors).toEqual([]);
    expect(ofType(events, 'tool.started').map((event) => [event.name, event.at])).toEqual([
      ['Task', T0 + 1000],
      [`Task${SUBAGENT_SEPARATOR}Read`, T0 + 2000],
    ]);
    expect(events.find((item) => item.event.type === 'tool.started')!.line).toBe(4);
    expect(events.at(-1)!.event).toEqual({ type: 'run.failed', at: T0 + 3000, error: 'boom' });
  });
});
