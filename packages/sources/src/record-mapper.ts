import type { AgentEvent } from '@progresscard/core';
import { FORMATS } from './formats/index.js';
import { RunBuilder } from './run-builder.js';
import type { TraceFormat, TraceItem } from './types.js';

/**
 * Maps already parsed records of one format (the messages of an agent SDK's stream) to agent
 * events, one record at a time, with the same converter {@link readTrace} uses for that format.
 */
export interface RecordMapper {
  /**
   * The events (and errors, `kind: 'error'`) one record produces, in order. Events carry no `at`
   * unless the record has a time of its own: the card stamps them on arrival.
   */
  map(record: unknown): TraceItem[];
  /** End of the stream: a run still going ends as a trace reader would end it (see `RunBuilder.endRun`). */
  end(): TraceItem[];
}

/**
 * A {@link RecordMapper} for `format`: `claude-stream-json` for the Claude Agent SDK's `query()`
 * messages, `codex-exec` for the Codex SDK's `runStreamed()` events.
 */
export function createRecordMapper(format: TraceFormat): RecordMapper {
  let out: TraceItem[] = [];
  const builder = new RunBuilder((item) => out.push(item));
  const converter = FORMATS[format].converter(builder);
  const take = (): TraceItem[] => {
    const items = out;
    out = [];
    return items;
  };
  return {
    map(record: unknown): TraceItem[] {
      builder.line += 1;
      try {
        converter.record(record, undefined);
      } catch (error) {
        builder.error(`could not convert the record: ${(error as Error).message}`);
      }
      return take();
    },
    end(): TraceItem[] {
      try {
        converter.end();
      } catch (error) {
        builder.error(`could not end the stream: ${(error as Error).message}`);
      }
      return take();
    },
  };
}

/** The events among mapped items. */
export function eventsOf(items: readonly TraceItem[]): AgentEvent[] {
  return items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));
}
