import { parseEvent } from '@progresscard/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bundledTraces, readTrace, TRACE_FORMATS, type TraceFormat } from '../src/index.js';
import { collect, linesStream, ofType, rawLines } from './helpers.js';

const toolHeavy = bundledTraces().find((trace) => trace.name === 'claude-session-tool-heavy.jsonl')!;
const original = rawLines(toolHeavy.path).filter((line) => line.trim());
const signature = (events: Awaited<ReturnType<typeof collect>>['events']): string[] =>
  events.map(({ event }) => `${event.type}:${'callId' in event ? event.callId : ''}:${event.at}`);

/** A line that is not a JSON object, and not blank. */
const garbage = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => {
  if (!text.trim()) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value !== 'object' || value === null || Array.isArray(value);
  } catch {
    return true;
  }
});

describe('malformed lines', () => {
  it('yields an error naming the line, and later events still come', async () => {
    const lines = [...original];
    lines.splice(9, 0, '{"type":"assistant","message":{"id":"broken"'); // becomes line 10
    const { errors, events } = await collect(linesStream(lines));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(10);
    expect(errors[0]!.message).toMatch(/^line 10: invalid JSON \(.+\): "\{\\"type\\":\\"assistant\\"/);
    expect(events.some((item) => item.line > 10)).toBe(true);
    expect(ofType(events, 'run.cancelled')).toHaveLength(2);
  });

  it('a garbage line anywhere in a JSONL trace costs exactly one error at its line and changes no event (property)', async () => {
    const reference = signature((await collect(linesStream(original))).events);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: original.length }), garbage, async (at, junk) => {
        const lines = [...original];
        lines.splice(at - 1, 0, junk);
        const { errors, events } = await collect(linesStream(lines), { format: 'claude-transcript' });
        expect(errors.map((error) => error.line)).toEqual([at]);
        expect(signature(events)).toEqual(reference);
      }),
      { numRuns: 25 },
    );
  });

  it('random lines never throw, in any format, and whatever comes out is valid (property)', async () => {
    const line = fc.oneof(
      garbage,
      fc.json(),
      fc.constantFrom(
        '{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}}',
        '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}',
        '{"type":"user","message":{"content":"hello"}}',
        '{"type":"response_item","timestamp":"2025-01-01T00:00:00Z","payload":{"type":"function_call","name":"shell","call_id":"c"}}',
        '{"type":"item.completed","item":{"id":"i","type":"command_execution","exit_code":1}}',
        '{"id":"g","timestamp":"2025-01-01T00:00:01Z","type":"gemini","toolCalls":[{"id":"x","name":"read_file","status":"success"}]}',
        '[2025-01-01T00:00:00.000Z] [INFO] {',
        '{"type":"result","subtype":"error_max_turns","session_id":"s"}',
        '{"timestamp":"not a time","type":"user","sessionId":"s","uuid":"u","message":{"content":[{"type":"tool_use"}]}}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.constantFrom<TraceFormat | 'auto'>('auto', ...TRACE_FORMATS), async (lines, format) => {
        const { items } = await collect(linesStream(lines), { format });
        let last = 0;
        for (const item of items) {
          expect(item.line).toBeGreaterThanOrEqual(0);
          expect(item.line).toBeLessThanOrEqual(Math.max(lines.join('\n').split('\n').length, 1));
          if (item.kind === 'error') continue;
          expect(parseEvent(item.event)).toEqual(item.event);
          expect(item.event.at!).toBeGreaterThanOrEqual(last);
          last = item.event.at!;
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('traces without timestamps', () => {
  it('stamps events with the time of reading (past the bounded backlog and at the end)', async () => {
    const before = Date.now();
    const lines = ['{"type":"user","sessionId":"s","uuid":"u0","message":{"content":"go"}}'];
    for (let i = 0; i < 700; i++) {
      lines.push(`{"type":"assistant","sessionId":"s","uuid":"a${i}","message":{"id":"m${i}","content":[{"type":"tool_use","id":"t${i}","name":"Bash","input":{}}]}}`);
      lines.push(`{"type":"user","sessionId":"s","uuid":"r${i}","message":{"content":[{"type":"tool_result","tool_use_id":"t${i}","content":"ok"}]}}`);
    }
    let seen = 0;
    for await (const item of readTrace(linesStream(lines))) {
      seen++;
      expect(item.kind).toBe('event');
      if (item.kind === 'event') expect(item.event.at!).toBeGreaterThanOrEqual(before);
    }
    // run.started, then per call round.started, tool.started, tool.finished, round.ended; run.completed.
    expect(seen).toBe(1 + 700 * 4 + 1);
  });
});

describe('maxGapMs', () => {
  const subagent = bundledTraces().find((trace) => trace.name === 'claude-session-subagent.jsonl')!;

  it('shortens pauses longer than the cap to the cap and keeps shorter gaps as they are', async () => {
    const full = (await collect(subagent.path)).events;
    const capped = (await collect(subagent.path, { maxGapMs: 10_000 })).events;
    expect(capped.map((item) => item.event.type)).toEqual(full.map((item) => item.event.type));
    let cut = 0;
    for (let i = 1; i < full.length; i++) {
      const gap = full[i]!.event.at! - full[i - 1]!.event.at!;
      expect(capped[i]!.event.at! - capped[i - 1]!.event.at!).toBe(Math.min(gap, 10_000));
      if (gap > 10_000) cut += gap - 10_000;
    }
    // The 135 s question and the 110 s plan approval alone are far above the cap.
    expect(cut).toBeGreaterThan(200_000);
    expect(capped[0]!.event.at).toBe(full[0]!.event.at);
    expect(capped.at(-1)!.event.at).toBe(full.at(-1)!.event.at! - cut);
  });
});
