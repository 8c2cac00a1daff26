import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { AgentEvent } from '@progresscard/core';
import { readTrace, type ReadTraceOptions, type TraceEventItem, type TraceErrorItem, type TraceItem } from '../src/index.js';

/** Everything one conversion produced. */
export interface Collected {
  readonly items: TraceItem[];
  readonly events: TraceEventItem[];
  readonly errors: TraceErrorItem[];
}

/** Runs {@link readTrace} to the end. */
export async function collect(input: string | NodeJS.ReadableStream, options?: ReadTraceOptions): Promise<Collected> {
  const items: TraceItem[] = [];
  for await (const item of readTrace(input, options)) items.push(item);
  return {
    items,
    events: items.filter((item): item is TraceEventItem => item.kind === 'event'),
    errors: items.filter((item): item is TraceErrorItem => item.kind === 'error'),
  };
}

/** A stream of the given lines. */
export function linesStream(lines: readonly string[]): NodeJS.ReadableStream {
  return Readable.from([lines.join('\n')]);
}

/** The events of one type. */
export function ofType<T extends AgentEvent['type']>(events: readonly TraceEventItem[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.map((item) => item.event).filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

/** The raw lines of a file (tests only: fixtures are small). */
export function rawLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

/** Every object inside `value` (depth first), `value` included. */
export function* walk(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const entry of value) yield* walk(entry);
  else if (value && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const entry of Object.values(value)) yield* walk(entry);
  }
}

/** Parsed JSONL records (blank lines skipped). */
export function jsonl(path: string): unknown[] {
  return rawLines(path)
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as unknown);
}

/** Distinct regex captures over a text. */
export function captures(text: string, pattern: RegExp): Set<string> {
  return new Set([...text.matchAll(pattern)].map((match) => match[1]!));
}
