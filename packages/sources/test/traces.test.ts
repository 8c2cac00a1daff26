import { isTerminalEvent, parseEvent } from '@progresscard/core';
import { describe, expect, it } from 'vitest';
import { bundledTraces, MAX_TITLE_CHARS, UNFINISHED_TOOL_SUMMARY, type BundledTrace } from '../src/index.js';
import { claudeInterruptions, rawFacts } from './expected.js';
import { collect, ofType, type Collected } from './helpers.js';

/**
 * How each recorded trace ends, read from the file:
 * - subagent: "[Request interrupted by user]" after the plan approval, then "create the beads" runs to its summary.
 * - tool-heavy: both prompts end with "[Request interrupted by user]".
 * - parallel-tasks: one prompt, ends with the summary text.
 * - mcp: four prompts; the 1st and 3rd end with a rejected tool + "[Request interrupted by user for tool use]".
 * - pr52: a `result` event of subtype success.
 * - codex rollouts: `task_complete` (parallel); the final message, no open call (plain).
 * - codex exec: two `turn.completed`.
 * - gemini: /init answered, then "Request cancelled.".
 */
const ENDINGS: Record<string, string[]> = {
  'claude-session-subagent.jsonl': ['run.cancelled', 'run.completed'],
  'claude-session-tool-heavy.jsonl': ['run.cancelled', 'run.cancelled'],
  'claude-session-parallel-tasks.jsonl': ['run.completed'],
  'claude-session-mcp.jsonl': ['run.cancelled', 'run.completed', 'run.cancelled', 'run.completed'],
  'claude-stream-json-pr52.log': ['run.completed'],
  'codex-rollout-parallel.jsonl': ['run.completed'],
  'codex-rollout-plain.jsonl': ['run.completed'],
  'codex-exec-json.log': ['run.completed', 'run.completed'],
  'gemini-chat-cancelled.jsonl': ['run.completed', 'run.cancelled'],
  'more/claude-transcript-2.1.39-compact-interrupt.jsonl': ['run.cancelled', 'run.completed', 'run.completed', 'run.completed'],
  'more/claude-stream-json-2.1.215-bg-tasks.log': ['run.completed'],
  'more/codex-rollout-0.144.6-compacted.jsonl': ['run.completed'],
  't3/claude-stream-json-2.1.17-opus.log': ['run.completed'],
  't3/claude-stream-json-2.1.207.log': ['run.completed'],
  't3/claude-transcript-2.1.215-long-bash.jsonl': ['run.completed'],
};

/** Formats whose raw facts `expected.ts` counts without the converters (the others are checked by the cross-package replay). */
const RAW_FACT_FORMATS = new Set(['claude-transcript', 'claude-stream-json', 'codex-rollout', 'codex-exec', 'gemini-chat']);

/** Records that are expected not to parse: pr52 line 5338 holds `\^[` escapes (an ESC written in caret notation). */
const ERROR_LINES: Record<string, number[]> = { 'claude-stream-json-pr52.log': [5338] };

const SYNTHETIC = new Set<string>(Object.values(UNFINISHED_TOOL_SUMMARY));
const converted = new Map<string, Promise<Collected>>();
const convert = (trace: BundledTrace): Promise<Collected> => {
  if (!converted.has(trace.name)) converted.set(trace.name, collect(trace.path));
  return converted.get(trace.name)!;
};
const key = (trace: BundledTrace, run: number, callId: string): string => (trace.format === 'codex-exec' ? `${run}:${callId}` : callId);

describe.each(bundledTraces().filter((trace) => RAW_FACT_FORMATS.has(trace.format)).map((trace) => [trace.name, trace] as const))('%s', (name, trace) => {
  const errorLines = ERROR_LINES[name] ?? [];

  it('converts with no error items but the expected ones', async () => {
    const { errors } = await convert(trace);
    expect(errors.map((error) => error.line)).toEqual(errorLines);
    for (const error of errors) expect(error.message).toMatch(new RegExp(`^line ${error.line}: `));
  });

  it('yields events that pass the core parseEvent, each with an `at` that never decreases', async () => {
    const { events } = await convert(trace);
    expect(events.length).toBeGreaterThan(0);
    let last = 0;
    for (const { event } of events) {
      expect(parseEvent(event)).toEqual(event);
      expect(Number.isInteger(event.at)).toBe(true);
      expect(event.at!).toBeGreaterThanOrEqual(last);
      last = event.at!;
    }
  });

  it('opens every run with run.started and closes it with one terminal event that matches the trace', async () => {
    const { events } = await convert(trace);
    const runs = [...new Set(events.map((item) => item.run))];
    expect(runs).toEqual(runs.map((_, index) => index + 1));
    const endings: string[] = [];
    for (const run of runs) {
      const own = events.filter((item) => item.run === run).map((item) => item.event);
      expect(own[0]!.type).toBe('run.started');
      expect(own.slice(1).some((event) => event.type === 'run.started')).toBe(false);
      expect(own.filter(isTerminalEvent)).toHaveLength(1);
      expect(isTerminalEvent(own.at(-1)!)).toBe(true);
      endings.push(own.at(-1)!.type);
    }
    expect(endings).toEqual(ENDINGS[name]);
    if (trace.format === 'claude-transcript') expect(endings.filter((type) => type === 'run.cancelled')).toHaveLength(claudeInterruptions(trace.path));
  });

  it('starts and finishes exactly the tool calls of the raw file, matched by id', async () => {
    const { events } = await convert(trace);
    const facts = rawFacts(trace.format, trace.path, errorLines);
    const started = new Map<string, number>();
    const finished = new Set<string>();
    const synthetic = new Set<string>();
    for (const { event, run } of events) {
      if (event.type === 'tool.started') {
        const id = key(trace, run, event.callId);
        expect(started.has(id), `started twice: ${id}`).toBe(false);
        started.set(id, run);
      } else if (event.type === 'tool.finished') {
        const id = key(trace, run, event.callId);
        expect(started.get(id), `finished before (or without) its start, or in another run: ${id}`).toBe(run);
        expect(finished.has(id), `finished twice: ${id}`).toBe(false);
        finished.add(id);
        if (event.summary && SYNTHETIC.has(event.summary)) synthetic.add(id);
      }
    }
    expect(new Set(started.keys())).toEqual(facts.toolIds);
    expect(finished).toEqual(facts.toolIds);
    // Calls without a result in the file are closed by their run's ending, and only those.
    expect(synthetic).toEqual(new Set([...facts.toolIds].filter((id) => !facts.resultIds.has(id))));
  });

  it('sends each plan tool call as the plan (plan.updated), never as a tool line', async () => {
    const { events } = await convert(trace);
    const facts = rawFacts(trace.format, trace.path, errorLines);
    const plans = events.filter(({ event }) => event.type === 'plan.updated');
    if (trace.format === 'codex-exec') expect(plans.length).toBeGreaterThanOrEqual(facts.planIds.size);
    else expect(plans).toHaveLength(facts.planIds.size + (facts.planAndToolIds?.size ?? 0));
    for (const { event } of plans) if (event.type === 'plan.updated') expect(event.items.length).toBeGreaterThan(0);
  });

  it('counts usage once per model message', async () => {
    const { events } = await convert(trace);
    const usage = ofType(events, 'usage').filter((event) => event.inputTokens !== undefined || event.outputTokens !== undefined);
    expect(usage).toHaveLength(rawFacts(trace.format, trace.path, errorLines).usageCount);
  });

  it('nests rounds inside runs and titles runs that have a prompt', async () => {
    const { events } = await convert(trace);
    let open: number | undefined;
    for (const { event } of events) {
      if (event.type === 'round.started') {
        expect(open).toBeUndefined();
        open = event.round;
      } else if (event.type === 'round.ended') {
        expect(event.round).toBe(open);
        open = undefined;
      } else if (event.type === 'run.started') {
        expect(open).toBeUndefined();
        if (trace.format !== 'claude-stream-json' && trace.format !== 'codex-exec') expect(event.title).toBeTruthy();
        if (event.title) expect(event.title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
      } else if (event.type === 'tool.started' || event.type === 'answer.delta' || event.type === 'thinking.delta') {
        expect(open, `${event.type} outside a round`).toBeDefined();
      }
    }
  });
});

describe('bundled traces in detail', () => {
  const byName = (name: string): BundledTrace => bundledTraces().find((trace) => trace.name === name)!;

  it('shows subagent tool calls under their Task call, not in the answer', async () => {
    const { events } = await collect(byName('claude-session-parallel-tasks.jsonl').path);
    const names = ofType(events, 'tool.started').map((event) => event.name);
    expect(names.filter((name) => name.startsWith('Task › '))).toHaveLength(8);
    const answer = ofType(events, 'answer.delta').map((event) => event.text).join('');
    expect(answer).not.toContain('Package.json Analysis Summary');
  });

  it('takes Codex call durations from the outputs of an older rollout', async () => {
    const { events } = await collect(byName('codex-rollout-plain.jsonl').path);
    const starts = new Map(ofType(events, 'tool.started').map((event) => [event.callId, event.at!]));
    const finish = ofType(events, 'tool.finished').find((event) => event.callId === 'call_tM3T89onRMKilKE3soVeFo7P')!;
    // Call and output share one timestamp; the output reports duration_seconds 0.4.
    expect(finish.at! - starts.get(finish.callId)!).toBe(400);
  });

  it('asks the user and waits in the subagent trace (AskUserQuestion, ExitPlanMode)', async () => {
    const { events } = await collect(byName('claude-session-subagent.jsonl').path);
    expect(ofType(events, 'interaction.requested').map((event) => event.prompt)).toEqual([
      expect.stringContaining('Which rig'),
      'Approve the plan?',
    ]);
  });

  it('matches parallel calls by id: the codex batch of 7 finishes each call with its own output', async () => {
    const { events } = await collect(byName('codex-rollout-parallel.jsonl').path);
    let open = 0;
    let most = 0;
    for (const { event } of events) {
      if (event.type === 'tool.started') most = Math.max(most, ++open);
      if (event.type === 'tool.finished') open--;
    }
    expect(most).toBe(7);
  });
});
