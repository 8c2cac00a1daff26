import { describe, expect, it } from 'vitest';
import { bundledTraces, detectFormat, type BundledTrace } from '../src/index.js';
import { codeModeCall, codeModeOutput } from '../src/formats/codex-code-mode.js';
import { collect, ofType, rawLines } from './helpers.js';

const byName = (name: string): BundledTrace => bundledTraces().find((trace) => trace.name === `more/${name}`)!;

describe('formats added in round 2, on their recorded traces', () => {
  it.each(bundledTraces().filter((trace) => trace.name.startsWith('more/')).map((trace) => [trace.name, trace.format] as const))('detects %s as %s', (name, format) => {
    expect(detectFormat(rawLines(bundledTraces().find((trace) => trace.name === name)!.path))).toBe(format);
  });

  it('reads the older single-document Gemini chat without line errors', async () => {
    const { events, errors } = await collect(byName('gemini-chat-legacy-single.json').path);
    expect(errors).toEqual([]);
    expect(ofType(events, 'run.started')).toHaveLength(1);
    expect(ofType(events, 'thinking.delta').length).toBeGreaterThan(0);
    expect(ofType(events, 'run.completed')[0]!.answer).toContain('My work is done.');
  });

  it('reads Copilot CLI events: 13 calls, the nudge without content starts no run, task_complete ends it', async () => {
    const { events, errors } = await collect(byName('copilot-cli-1.0.34.jsonl').path);
    expect(errors).toEqual([]);
    expect(ofType(events, 'run.started').map((event) => event.title?.slice(0, 6))).toEqual(['請不要修改任']);
    expect(ofType(events, 'tool.finished')).toHaveLength(13);
    // A web search result is JSON text: its value is shown, not the wrapper.
    const search = ofType(events, 'tool.finished').find((event) => event.callId === 'toolu_01UeYdysjF2DK95UZmqh9Yo9')!;
    expect(search.summary).not.toMatch(/^\{/);
    expect(ofType(events, 'run.completed')[0]!.answer).toMatch(/^完成 Rust/);
  });

  it('reads OpenCode JSON events in a wrapper log: 21 completed calls (3 of them todowrite, the plan), then the timeout fails the run', async () => {
    const { events, errors } = await collect(byName('opencode-agent-json-events.log').path);
    expect(errors).toEqual([]);
    expect(ofType(events, 'tool.finished')).toHaveLength(18);
    expect(ofType(events, 'plan.updated')).toHaveLength(3);
    expect(ofType(events, 'tool.started').map((event) => event.name)).not.toContain('todowrite');
    expect(ofType(events, 'tool.finished').filter((event) => event.isError)).toEqual([]);
    expect(ofType(events, 'run.failed').map((event) => event.error)).toEqual(['The operation timed out.']);
  });

  it('reads Cursor stream-json: both parallel shell calls with their own durations, the answer once', async () => {
    const { events } = await collect(byName('cursor-stream-json-parallel.jsonl').path);
    const started = new Map(ofType(events, 'tool.started').map((event) => [event.callId, event]));
    const finished = ofType(events, 'tool.finished');
    expect([...started.values()].map((event) => event.name)).toEqual(['shell', 'shell']);
    expect(finished).toHaveLength(2);
    const durations = finished.map((event) => event.at! - started.get(event.callId)!.at!).sort((a, b) => a - b);
    expect(durations[0]).toBeGreaterThanOrEqual(4162);
    expect(durations[1]).toBeGreaterThanOrEqual(6194);
    const answer = ofType(events, 'run.completed')[0]!.answer!;
    expect(answer.match(/done/g)).toHaveLength(2); // "`done`." in the first text, "done" once at the end
    expect(answer).toMatch(/`done`\.\n\ndone$/);
  });

  it('takes Claude stream-json token totals from the result (every model), not from streamed snapshots', async () => {
    const { events } = await collect(byName('claude-stream-json-2.1.215-bg-tasks.log').path);
    const usage = ofType(events, 'usage');
    const output = usage.reduce((sum, event) => sum + (event.outputTokens ?? 0), 0);
    expect(output).toBe(14553 + 546);
  });

  it('titles runs started by <task-notification> lines by their summary', async () => {
    const { events } = await collect(byName('claude-transcript-2.1.39-compact-interrupt.jsonl').path);
    const titles = ofType(events, 'run.started').map((event) => event.title ?? '');
    expect(titles).toHaveLength(4);
    for (const title of titles) expect(title).not.toMatch(/[<>]/);
    expect(titles[1]).toMatch(/^Background command/);
  });

  it('shows Codex code-mode calls by their inner command and real outcome', async () => {
    const { events } = await collect(byName('codex-rollout-0.144.6-compacted.jsonl').path);
    const started = ofType(events, 'tool.started');
    const finished = ofType(events, 'tool.finished');
    // Only a script that calls no tool keeps the name `exec`; none shows JavaScript calling tools.
    expect(started.filter((event) => String(event.args).includes('await tools.'))).toEqual([]);
    expect(started.filter((event) => event.name === 'exec_command').length).toBeGreaterThan(150);
    expect(started.filter((event) => event.name === 'wait')).toHaveLength(75);
    expect(finished.filter((event) => event.isError)).toHaveLength(15);
    expect(finished.filter((event) => event.summary?.includes('chunk_id'))).toEqual([]);
  });
});

describe('codex code mode', () => {
  it('finds the inner call and its command in the script', () => {
    expect(codeModeCall('const r = await tools.exec_command({cmd:"git status && ls \\"a b\\"",workdir:"/x"}); text(r.output);')).toEqual({
      name: 'exec_command',
      args: { command: 'git status && ls "a b"' },
    });
    expect(codeModeCall("await tools.web_search({query:'rust docs'})")).toEqual({ name: 'web_search', args: { query: 'rust docs' } });
    expect(codeModeCall('text(1 + 1)')).toEqual({ name: 'exec', args: { script: 'text(1 + 1)' } });
  });

  it('reads nested exit codes, a failed script and the wall time', () => {
    const header = (state: string) => `Script ${state}\nWall time 0.2 seconds\nOutput:\n`;
    expect(codeModeOutput([header('completed'), '{"chunk_id":"1","exit_code":127,"output":"rust-script: command not found\\n"}'])).toEqual({
      summary: 'rust-script: command not found',
      isError: true,
      durationMs: 200,
    });
    expect(codeModeOutput([header('completed'), '', '{"exit_code":1}'])).toEqual({ summary: 'exit 1', isError: true, durationMs: 200 });
    expect(codeModeOutput([header('failed'), 'Script error:\napply_patch verification failed'])).toMatchObject({ isError: true, summary: 'Script error:' });
    expect(codeModeOutput([header('completed'), '{}', 'all good'])).toEqual({ summary: 'all good', durationMs: 200 });
  });
});
