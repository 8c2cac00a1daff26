import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { DETECT_MAX_LINES, FormatDetector } from './detect.js';
import { createTraceLineReader } from './line-reader.js';
import { FORMAT_LABELS, isTraceFormat, TRACE_FORMATS, type ReadTraceOptions, type TraceFormat, type TraceItem } from './types.js';

/**
 * Reads a recorded (or live, piped) agent trace and converts it into agent events, line by line
 * with constant memory (readline over the stream; no whole-file read).
 *
 * Yields `{ kind: 'event', line, run, event }` items (every event passes the core's `parseEvent`
 * and carries `at`, epoch ms, never decreasing) and, for a record that cannot be read or converted,
 * `{ kind: 'error', line, message }` items; the conversion goes on after an error. If the format
 * cannot be detected, one error item is yielded and the iteration ends.
 *
 * Times: a record's own timestamp, else its log-prefix time, else the last time seen. A trace
 * without any timestamps (e.g. raw `stream-json` piped in) uses the time each line was read, so a
 * live pipe shows real times.
 *
 * @param input A file path, or a readable stream of the trace text (UTF-8).
 * @param options Format (`'auto'` by default) and `maxGapMs`, see {@link ReadTraceOptions}.
 * @throws TypeError (at the call) for an unknown `format`; RangeError for a `maxGapMs` that is not a
 *   positive finite number. Errors of the stream itself (e.g. ENOENT for a missing file) are thrown
 *   by the iteration.
 */
export function readTrace(input: string | NodeJS.ReadableStream, options: ReadTraceOptions = {}): AsyncIterable<TraceItem> {
  const format = options.format ?? 'auto';
  if (format !== 'auto' && !isTraceFormat(format)) {
    throw new TypeError(`readTrace: unknown format ${JSON.stringify(format)}; expected 'auto' or one of ${TRACE_FORMATS.join(', ')}`);
  }
  const { maxGapMs } = options;
  if (options.locale !== undefined && options.locale !== 'zh-CN' && options.locale !== 'en') {
    throw new TypeError(`readTrace: unknown locale ${JSON.stringify(options.locale)}; expected 'zh-CN' or 'en'`);
  }
  if (maxGapMs !== undefined && !(typeof maxGapMs === 'number' && Number.isFinite(maxGapMs) && maxGapMs > 0)) {
    throw new RangeError(`readTrace: maxGapMs must be a positive number of ms, got ${String(maxGapMs)}`);
  }
  return convert(input, format, options);
}

/**
 * The error for a trace in no known format: the formats read and how to force one, e.g.
 * `could not detect the trace format from the first 55 line(s). Formats read: claude-transcript (…), …
 * Force one with --format <name> (CLI) or { format: '<name>' } (readTrace).`
 */
export function unknownFormatMessage(lines: number): string {
  const formats = TRACE_FORMATS.map((format) => `${format} (${FORMAT_LABELS[format]})`).join(', ');
  return `could not detect the trace format from the first ${lines} line(s): no record of a known format. Formats read: ${formats}. Force one with --format <name> (CLI) or { format: '<name>' } (readTrace).`;
}

async function* convert(input: string | NodeJS.ReadableStream, requested: TraceFormat | 'auto', options: ReadTraceOptions): AsyncGenerator<TraceItem> {
  const stream = typeof input === 'string' ? createReadStream(input, { encoding: 'utf8' }) : input;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  try {
    const head: string[] = [];
    let format: TraceFormat | undefined = requested === 'auto' ? undefined : requested;
    if (!format) {
      const detector = new FormatDetector();
      while (!format && head.length < DETECT_MAX_LINES) {
        const next = await iterator.next();
        if (next.done) break;
        head.push(next.value);
        format = detector.push(next.value);
      }
      if (!format) {
        const message = unknownFormatMessage(head.length);
        yield { kind: 'error', line: head.length, message: `line ${head.length}: ${message}` };
        return;
      }
    }
    options.onFormat?.(format);

    const reader = createTraceLineReader(format, { maxGapMs: options.maxGapMs, locale: options.locale });
    for (const line of head) yield* reader.pushLine(line);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      yield* reader.pushLine(next.value);
    }
    yield* reader.end();
  } finally {
    lines.close();
    if (typeof input === 'string') (stream as ReturnType<typeof createReadStream>).destroy();
  }
}
