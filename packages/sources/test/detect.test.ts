import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledTraces, bundledTracesDir, classifyRecord, detectFormat, readTrace, TRACE_FORMATS, type TraceFormat } from '../src/index.js';
import { collect, linesStream, rawLines } from './helpers.js';

describe('detectFormat', () => {
  it.each(bundledTraces().map((trace) => [trace.name, trace.format] as const))('detects %s as %s', (name, format) => {
    const trace = bundledTraces().find((entry) => entry.name === name)!;
    expect(detectFormat(rawLines(trace.path))).toBe(format);
  });

  it('covers every format with a bundled trace', () => {
    expect(new Set(bundledTraces().map((trace) => trace.format))).toEqual(new Set(TRACE_FORMATS));
  });

  it('reports the detected format through onFormat before the first item', async () => {
    for (const trace of bundledTraces()) {
      let seen: TraceFormat | undefined;
      for await (const item of readTrace(trace.path, { onFormat: (format) => (seen = format) })) {
        expect(item).toBeDefined();
        break;
      }
      expect(seen).toBe(trace.format);
    }
  });

  it('classifies single records', () => {
    expect(classifyRecord({ type: 'event_msg', timestamp: 't', payload: {} })).toBe('codex-rollout');
    expect(classifyRecord({ type: 'thread.started', thread_id: 'x' })).toBe('codex-exec');
    expect(classifyRecord({ type: 'system', subtype: 'init', session_id: 's' })).toBe('claude-stream-json');
    expect(classifyRecord({ type: 'user', sessionId: 's', uuid: 'u', message: {} })).toBe('claude-transcript');
    expect(classifyRecord({ sessionId: 's', projectHash: 'h', startTime: 't' })).toBe('gemini-chat');
    expect(classifyRecord({ id: 'x', timestamp: 't', type: 'user', content: [] })).toBe('gemini-chat');
    expect(classifyRecord({ hello: 'world' })).toBeUndefined();
    expect(classifyRecord([1, 2])).toBeUndefined();
  });

  it('gives up with one error item when nothing is recognisable, and accepts an explicit format', async () => {
    const unknown = await collect(linesStream(['hello', '{"a":1}']));
    expect(unknown.events).toHaveLength(0);
    expect(unknown.errors).toHaveLength(1);
    expect(unknown.errors[0]!.message).toMatch(/could not detect the trace format/);
    // The error lists every format read and how to force one.
    for (const format of TRACE_FORMATS) expect(unknown.errors[0]!.message).toContain(format);
    expect(unknown.errors[0]!.message).toContain('--format <name>');
    const explicit = await collect(linesStream(['{"type":"turn.started"}', '{"type":"turn.completed","usage":{}}']), { format: 'codex-exec' });
    expect(explicit.errors).toHaveLength(0);
    expect(explicit.events.map((item) => item.event.type)).toEqual(['run.started', 'run.completed']);
  });

  it('rejects bad options at the call', () => {
    expect(() => readTrace('x', { format: 'nope' as TraceFormat })).toThrow(/unknown format "nope"/);
    expect(() => readTrace('x', { maxGapMs: 0 })).toThrow(RangeError);
    expect(() => readTrace('x', { maxGapMs: Number.NaN })).toThrow(/maxGapMs/);
  });

  it('throws the stream error of a missing file from the iteration', async () => {
    await expect(collect(join(bundledTracesDir(), 'missing.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});

describe('bundledTraces', () => {
  it('lists every bundled trace file with an absolute path, next to its attribution', () => {
    const traces = bundledTraces();
    expect(traces).toHaveLength(21);
    const dir = bundledTracesDir();
    expect(isAbsolute(dir)).toBe(true);
    expect(dir).toMatch(/packages[\\/]sources[\\/]fixtures[\\/]traces[\\/]$/);
    for (const trace of traces) {
      expect(isAbsolute(trace.path)).toBe(true);
      expect(existsSync(trace.path)).toBe(true);
      expect(trace.description).toBeTruthy();
    }
    for (const folder of ['', 'more/', 't3/']) {
      const files = readdirSync(join(dir, folder));
      expect(files).toEqual(expect.arrayContaining(['SOURCES.md']));
      const traceFiles = files.filter((file) => !file.endsWith('.md') && file !== 'more' && file !== 't3').map((file) => `${folder}${file}`);
      expect(traceFiles.sort()).toEqual(traces.map((trace) => trace.name).filter((name) => (folder ? name.startsWith(folder) : !name.includes('/'))).sort());
    }
    expect(readdirSync(dir)).toContain('ATTRIBUTION.md');
  });
});
