import { FORMATS } from './formats/index.js';
import type { Framed } from './framing/framer.js';
import { ItemQueue } from './output.js';
import { RunBuilder } from './run-builder.js';
import type { TraceFormat, TraceItem, TraceLocale } from './types.js';

/**
 * Converts a trace of a known format line by line, as the lines arrive: the engine under
 * {@link readTrace}, for callers that get lines from elsewhere (a file being appended to).
 */
export interface TraceLineReader {
  readonly format: TraceFormat;
  /** Takes the next complete line (without its newline); returns the items ready to go out. */
  pushLine(line: string): TraceItem[];
  /**
   * End of input: the last run ends as the trace suggests (see `RunBuilder.endRun`) and held items
   * go out. Lines pushed afterwards go on converting (a later run of the same trace).
   */
  end(): TraceItem[];
}

/** Options of {@link createTraceLineReader}. */
export interface TraceLineReaderOptions {
  /** Longest pause kept between two consecutive events, ms (see `ReadTraceOptions.maxGapMs`). Default: no cap. */
  readonly maxGapMs?: number;
  /** Time of reading in epoch ms, for records without any time (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Language of the texts the reader writes itself (an inferred ending, the default title); when
   * given, `run.started` also carries it as the card's locale (see `ReadTraceOptions.locale`).
   */
  readonly locale?: TraceLocale;
}

/**
 * A {@link TraceLineReader} for `format`. Times: a record's own timestamp, else its log-prefix time,
 * else the time of the agent's own last log line, else the last time seen; a trace without any
 * timestamps uses the time each line was read.
 */
export function createTraceLineReader(format: TraceFormat, options: TraceLineReaderOptions = {}): TraceLineReader {
  const now = options.now ?? Date.now;
  let queue = new ItemQueue(options.maxGapMs);
  const builder = new RunBuilder((item) => queue.push(item), options.locale ?? 'zh-CN', options.locale !== undefined);
  const framer = FORMATS[format].framer();
  const converter = FORMATS[format].converter(builder);
  let lineNo = 0;
  let sawPrefixTime = false;
  let logTime: number | undefined;
  const readTimes = FORMATS[format].eventsWithoutTimes;

  const deliver = (records: Framed[]): void => {
    for (const record of records) {
      builder.line = record.line;
      if ('error' in record) {
        builder.error(record.error);
        continue;
      }
      if ('time' in record) {
        // The agent's own log line: its time stands for the events after it that carry none.
        logTime = record.time;
        sawPrefixTime = true;
        continue;
      }
      if (record.at !== undefined) sawPrefixTime = true;
      // No timestamps anywhere so far (raw piped events): the time of reading is the event time.
      const at = record.at ?? logTime ?? (sawPrefixTime ? undefined : now());
      try {
        converter.record(record.value, readTimes ? at : record.at);
      } catch (error) {
        builder.error(`could not convert the record: ${(error as Error).message}`);
      }
    }
  };

  return {
    format,
    pushLine(line: string): TraceItem[] {
      lineNo += 1;
      deliver(framer.push(line, lineNo));
      return queue.take();
    },
    end(): TraceItem[] {
      deliver(framer.end());
      builder.line = Math.max(lineNo, 1);
      try {
        converter.end();
      } catch (error) {
        builder.error(`could not end the trace: ${(error as Error).message}`);
      }
      const items = queue.end(now());
      // Later lines start over on time ordering, as a fresh read of the rest would.
      queue = new ItemQueue(options.maxGapMs);
      return items;
    },
  };
}
