import type { AgentEvent } from '@progresscard/core';
import { createRecordMapper, type TraceFormat, type TraceItem } from '@progresscard/sources';
import type { MirrorOptions, StreamMapper } from './mirror.js';

/** Called with the message of a record that could not be converted (default: ignored). */
export type RecordErrorHandler = (message: string) => void;

/** What a record stream mapper takes besides the mirror options. */
export interface RecordStreamOptions {
  /** Called with a record that could not be converted. */
  readonly onError?: RecordErrorHandler;
  /**
   * The SDK's first sign of life (Claude's `system/init`, Codex's `thread.started` / `turn.started`):
   * the card's run starts at once, with the model the record names, instead of at the first model
   * output (which can be seconds of thinking later).
   */
  readonly startsRun?: (record: unknown) => { readonly model?: string } | undefined;
}

/**
 * A {@link StreamMapper} for SDK messages that have a trace format's shape: the converter of
 * `@progresscard/sources` for that format maps them (one mapping per format), and the options'
 * title, model and locale go onto `run.started` (the stream itself carries no prompt). Once the
 * run started, a later `run.started` of the converter only passes on its model (as `usage`).
 */
export function recordStreamMapper(format: TraceFormat, options: MirrorOptions = {}, extra: RecordStreamOptions = {}): StreamMapper<unknown> {
  const mapper = createRecordMapper(format);
  let started = false;
  let shownModel: string | undefined;
  const runStarted = (model: string | undefined, title: string | undefined): AgentEvent => {
    shownModel = options.model || model;
    return {
      type: 'run.started',
      ...(options.title || title ? { title: options.title || title } : {}),
      ...(shownModel ? { model: shownModel } : {}),
      ...(options.locale ? { locale: options.locale } : {}),
    };
  };
  const events = (items: readonly TraceItem[]): AgentEvent[] => {
    const out: AgentEvent[] = [];
    for (const item of items) {
      if (item.kind === 'error') extra.onError?.(item.message);
      else if (item.event.type !== 'run.started') out.push(item.event);
      else if (!started) {
        started = true;
        out.push(runStarted(item.event.model, item.event.title));
      } else if (item.event.model && !options.model && item.event.model !== shownModel) {
        shownModel = item.event.model;
        out.push({ type: 'usage', model: item.event.model });
      }
    }
    return out;
  };
  return {
    map(record) {
      const early = started ? undefined : extra.startsRun?.(record);
      const head: AgentEvent[] = [];
      if (early) {
        started = true;
        head.push(runStarted(early.model, undefined));
      }
      return [...head, ...events(mapper.map(record))];
    },
    end: () => events(mapper.end()),
  };
}
