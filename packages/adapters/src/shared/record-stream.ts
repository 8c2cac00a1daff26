import type { AgentEvent } from '@progresscard/core';
import { createRecordMapper, type TraceFormat, type TraceItem } from '@progresscard/sources';
import type { MirrorOptions, StreamMapper } from './mirror.js';

/** Called with the message of a record that could not be converted (default: ignored). */
export type RecordErrorHandler = (message: string) => void;

/**
 * A {@link StreamMapper} for SDK messages that have a trace format's shape: the converter of
 * `@progresscard/sources` for that format maps them (one mapping per format), and the options'
 * title, model and locale go onto `run.started` (the stream itself carries no prompt).
 */
export function recordStreamMapper(format: TraceFormat, options: MirrorOptions = {}, onError?: RecordErrorHandler): StreamMapper<unknown> {
  const mapper = createRecordMapper(format);
  const events = (items: readonly TraceItem[]): AgentEvent[] => {
    const out: AgentEvent[] = [];
    for (const item of items) {
      if (item.kind === 'error') onError?.(item.message);
      else if (item.event.type === 'run.started') {
        out.push({
          ...item.event,
          ...(options.title && !item.event.title ? { title: options.title } : {}),
          ...(options.model && !item.event.model ? { model: options.model } : {}),
          ...(options.locale ? { locale: options.locale } : {}),
        });
      } else out.push(item.event);
    }
    return out;
  };
  return { map: (record) => events(mapper.map(record)), end: () => events(mapper.end()) };
}
