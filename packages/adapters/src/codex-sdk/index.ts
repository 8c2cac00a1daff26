import type { ProgressCard } from '@progresscard/core';
import { mirrorStream, type LiveRunResult, type MirrorOptions, type StreamMapper } from '../shared/mirror.js';
import { recordStreamMapper, type RecordErrorHandler } from '../shared/record-stream.js';

export type { LiveRunResult, MirrorOptions } from '../shared/mirror.js';

/** What the adapter reads of a Codex SDK `ThreadEvent`: its `type`; the rest as `codex exec --json`. */
export interface CodexThreadEvent {
  readonly type: string;
}

/** Options of {@link mirrorCodex}. */
export interface CodexMirrorOptions extends MirrorOptions {
  /** Called with an event that could not be converted (default: ignored). */
  readonly onRecordError?: RecordErrorHandler;
}

/**
 * Mirrors a Codex SDK turn onto a card:
 * `const { events } = await thread.runStreamed(prompt); await mirrorCodex(events, card, { title: prompt })`.
 *
 * The SDK's events are `codex exec --json` events, so they go through the same converter as a
 * recorded exec trace (`@progresscard/sources`): `turn.started` opens the run; `reasoning` items →
 * thinking; `agent_message` items → answer; `command_execution`, `file_change`, `mcp_tool_call`,
 * `web_search` and `todo_list` items are tool calls (started / completed by item id; a failed
 * status or a non-zero exit code marks an error); model output after a tool result opens a
 * round; `turn.completed` sends its usage and completes the run with the last agent message;
 * `turn.failed` fails it; a stream `error` fails the run if the stream then ends without a turn ending.
 * Imports nothing from the SDK.
 *
 * @returns The card's final status once the stream ended.
 * @throws Whatever iterating the events throws (after the card shows it failed, or cancelled for an abort).
 */
export function mirrorCodex(events: AsyncIterable<CodexThreadEvent>, card: ProgressCard, options: CodexMirrorOptions = {}): Promise<LiveRunResult> {
  return mirrorStream<unknown>(events, card, codexMapper(options, options.onRecordError), options.signal);
}

/**
 * Codex SDK thread events to agent events: the `codex exec --json` converter, with the run started
 * at `thread.started` / `turn.started` (the SDK's first sign of life). The stream names no model:
 * pass the thread's `model` in the options to show it in the footer.
 */
export function codexMapper(options: MirrorOptions = {}, onRecordError?: RecordErrorHandler): StreamMapper<unknown> {
  return recordStreamMapper('codex-exec', options, {
    ...(onRecordError ? { onError: onRecordError } : {}),
    startsRun: (record) => {
      const type = typeof record === 'object' && record !== null ? (record as { type?: unknown }).type : undefined;
      return type === 'thread.started' || type === 'turn.started' ? {} : undefined;
    },
  });
}
