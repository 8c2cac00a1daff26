import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { isTerminalEvent, type AgentEvent, type CardStatus } from '@progresscard/core';
import { bundledTraces, FORMAT_LABELS, readTrace, TRACE_FORMATS, type TraceFormat } from '@progresscard/sources';
import { CliUsageError } from '../errors.js';
import { EVENTS_FORMAT, looksLikeAgentEvent, readEventsFile } from './events-format.js';

/** Formats `--format` takes: the converters of `@progresscard/sources`, the CLI's own `events`, or `auto`. */
export const FORMAT_CHOICES = ['auto', ...TRACE_FORMATS, EVENTS_FORMAT] as const;
/** A `--format` value. */
export type FormatChoice = (typeof FORMAT_CHOICES)[number];

/** What each trace format `replay` reads is (the `--format` values but `auto`), in `--format` order: the help lists them from here. */
export const FORMAT_DESCRIPTIONS: Readonly<Record<Exclude<FormatChoice, 'auto'>, string>> = {
  ...FORMAT_LABELS,
  [EVENTS_FORMAT]: 'progresscard events JSONL (what a product pushes into a card)',
};

/** One event with its card-time stamp and where it came from. */
export interface TimedEvent {
  readonly event: AgentEvent;
  /** Epoch ms in trace time (gaps already capped). */
  readonly at: number;
  /** 1-based line of the record in the trace file. */
  readonly line: number;
  /** Run number (1-based): each run becomes one card per channel. */
  readonly run: number;
}

/** A trace read into memory, ready to replay. */
export interface LoadedTrace {
  readonly name: string;
  readonly path: string;
  readonly format: string;
  readonly events: readonly TimedEvent[];
  /** Records that could not be read, with their line numbers (already reported through `onWarning`). */
  readonly warnings: readonly string[];
  /** Run numbers in order of appearance. */
  readonly runs: readonly number[];
  /** The terminal status each run's trace records (undefined: the trace ends mid-run). */
  readonly expected: ReadonlyMap<number, CardStatus | undefined>;
  readonly startAt: number;
  readonly endAt: number;
  /** `endAt − startAt`, ms of trace time after gap capping. */
  readonly spanMs: number;
}

/** Options of {@link loadTrace}. */
export interface LoadTraceOptions {
  readonly format?: FormatChoice;
  /** Longest pause kept between two events (ms); undefined or 0 = no cap. */
  readonly maxGapMs?: number;
  /** Called for each unreadable record, e.g. `line 12: invalid JSON …`. */
  readonly onWarning?: (message: string) => void;
}

const TERMINAL_STATUS: Record<string, CardStatus> = {
  'run.completed': 'completed',
  'run.failed': 'failed',
  'run.cancelled': 'cancelled',
};

/**
 * Resolves `--trace <name|file>`: a bundled trace by file name (extension optional, e.g.
 * `claude-session-parallel-tasks`), else a file path.
 * @throws CliUsageError listing the bundled names when neither exists.
 */
export async function resolveTrace(nameOrFile: string, label = 'trace'): Promise<{ name: string; path: string; format?: TraceFormat }> {
  const bundled = bundledTraces().find((t) => [t.name, t.name.split('/').pop()!].some((name) => name === nameOrFile || name.replace(/\.[a-z]+$/, '') === nameOrFile));
  if (bundled) return { name: bundled.name, path: bundled.path, format: bundled.format };
  await assertReadableFile(nameOrFile, `${label} ${JSON.stringify(nameOrFile)} is neither a bundled trace (${bundledTraces().map((t) => t.name).join(', ')}) nor a file`);
  return { name: basename(nameOrFile), path: nameOrFile };
}

/** @throws CliUsageError with `message` when `path` is not a readable file. */
async function assertReadableFile(path: string, message = `trace file ${JSON.stringify(path)} not found`): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new CliUsageError(message);
}

async function firstLine(path: string): Promise<string | undefined> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of lines) if (line.trim() !== '') return line.trim();
    return undefined;
  } finally {
    lines.close();
  }
}

/** Shortens every pause longer than `maxGapMs` to it; later stamps move back by the difference. */
export function capGaps<T extends { at: number }>(items: readonly T[], maxGapMs: number | undefined): T[] {
  if (maxGapMs === undefined) return [...items];
  let shift = 0;
  let previous: number | undefined;
  return items.map((item) => {
    if (previous !== undefined && item.at - previous > maxGapMs) shift += item.at - previous - maxGapMs;
    previous = item.at;
    return { ...item, at: item.at - shift };
  });
}

/**
 * Reads a whole trace (file) into memory. Unreadable records are reported through `onWarning`
 * with their line number and skipped.
 * @throws CliUsageError when the file is missing, the format cannot be detected, or no event is left.
 */
export async function loadTrace(path: string, name: string, options: LoadTraceOptions = {}): Promise<LoadedTrace> {
  await assertReadableFile(path);
  let format: string = options.format ?? 'auto';
  if (format === 'auto' && looksLikeAgentEvent((await firstLine(path)) ?? '')) format = EVENTS_FORMAT;
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.onWarning?.(message);
  };
  const raw: Array<{ event: AgentEvent; at: number | undefined; line: number; run: number }> = [];
  let detectionFailed: string | undefined;
  const maxGapMs = options.maxGapMs && options.maxGapMs > 0 ? options.maxGapMs : undefined;
  const items =
    format === EVENTS_FORMAT
      ? readEventsFile(path)
      : readTrace(path, {
          format: format as TraceFormat | 'auto',
          maxGapMs,
          onFormat: (detected) => (format = detected),
        });
  for await (const item of items) {
    if (item.kind === 'error') {
      if (format === 'auto') detectionFailed = item.message;
      else warn(item.message);
      continue;
    }
    raw.push({ event: item.event, at: item.event.at, line: item.line, run: item.run });
  }
  if (detectionFailed) throw new CliUsageError(`${name}: ${detectionFailed.replace(/^line \d+: /, '')}`);
  if (raw.length === 0) throw new CliUsageError(`${name}: no agent events could be read (format ${format})`);

  // Events without a stamp take the previous one (or the first known one, or now).
  let last = raw.find((r) => r.at !== undefined)?.at ?? Date.now();
  const stamped = raw.map((r) => {
    last = Math.max(last, r.at ?? last);
    return { event: r.event, at: last, line: r.line, run: r.run };
  });
  const events = format === EVENTS_FORMAT ? capGaps(stamped, maxGapMs) : stamped;

  const runs: number[] = [];
  const expected = new Map<number, CardStatus | undefined>();
  for (const { event, run } of events) {
    if (!expected.has(run)) {
      runs.push(run);
      expected.set(run, undefined);
    }
    if (isTerminalEvent(event) && expected.get(run) === undefined) expected.set(run, TERMINAL_STATUS[event.type]);
  }
  const startAt = events[0]!.at;
  const endAt = events[events.length - 1]!.at;
  return { name, path, format, events, warnings, runs, expected, startAt, endAt, spanMs: endAt - startAt };
}
