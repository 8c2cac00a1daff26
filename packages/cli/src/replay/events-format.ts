import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AgentEventSchema, EventParseError, parseEvent } from '@progresscard/core';
import { cut } from '@progresscard/core/plugin';

/**
 * The CLI's own trace format `events`: JSON Lines of progresscard agent events (what a product
 * pushes into a card, e.g. logged with `JSON.stringify(event)`), one per line. Each `run.started`
 * begins a new run. Blank lines are skipped; a bad line becomes an error item and reading goes on.
 */
export const EVENTS_FORMAT = 'events';

/** One item read from an `events` file: the same shape as `@progresscard/sources`' trace items. */
export type EventsItem =
  | { readonly kind: 'event'; readonly line: number; readonly run: number; readonly event: ReturnType<typeof parseEvent> }
  | { readonly kind: 'error'; readonly line: number; readonly message: string };

const EVENT_TYPES = new Set(AgentEventSchema.options.map((o) => o.shape.type.value as string));

/** True when `line` is a JSON object whose `type` is an agent event type (used for format detection). */
export function looksLikeAgentEvent(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && EVENT_TYPES.has(String((value as { type?: unknown }).type));
  } catch {
    return false;
  }
}

function clip(text: string, max = 80): string {
  return cut(text, max);
}

/** Reads an `events` file. Never throws for bad lines; throws only when the file cannot be opened. */
export async function* readEventsFile(path: string): AsyncGenerator<EventsItem> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let lineNo = 0;
  let run = 0;
  for await (const raw of lines) {
    lineNo += 1;
    const text = raw.trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { kind: 'error', line: lineNo, message: `line ${lineNo}: invalid JSON (${(error as Error).message}): ${clip(text)}` };
      continue;
    }
    try {
      const event = parseEvent(value);
      if (event.type === 'run.started' || run === 0) run += 1;
      yield { kind: 'event', line: lineNo, run, event };
    } catch (error) {
      const why = error instanceof EventParseError ? error.message : String(error);
      yield { kind: 'error', line: lineNo, message: `line ${lineNo}: ${why}` };
    }
  }
}
