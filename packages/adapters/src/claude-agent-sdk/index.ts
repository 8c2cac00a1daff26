import type { ProgressCard } from '@progresscard/core';
import { mirrorStream, type LiveRunResult, type MirrorOptions } from '../shared/mirror.js';
import type { RecordErrorHandler } from '../shared/record-stream.js';
import { claudeAgentMapper } from './map-messages.js';

export type { LiveRunResult, MirrorOptions } from '../shared/mirror.js';

/** What the adapter reads of a Claude Agent SDK message (`SDKMessage`): its `type`; the rest as stream-json. */
export interface ClaudeAgentMessage {
  readonly type: string;
}

/** Options of {@link mirrorClaudeAgent}. */
export interface ClaudeAgentMirrorOptions extends MirrorOptions {
  /** Called with a message that could not be converted (default: ignored). */
  readonly onRecordError?: RecordErrorHandler;
}

/**
 * Mirrors a Claude Agent SDK run onto a card: `await mirrorClaudeAgent(query({ prompt }), card, { title: prompt })`.
 *
 * The SDK's messages are Claude Code's `--output-format stream-json` events, so they go through
 * the same converter as a recorded stream-json trace (`@progresscard/sources`), with the live-only
 * messages of {@link claudeAgentMapper} (retries, background tasks) added: `system` `init`
 * opens the run at once with its model; `assistant` messages give rounds (one per message id), text,
 * thinking and `tool_use` calls (a Task subagent's own calls show as `Task › Bash` lines);
 * `user` `tool_result` blocks finish calls (`is_error` marks a failed one); `AskUserQuestion` and
 * `ExitPlanMode` → `interaction.requested`; per-message usage → `usage`; the `result` message
 * completes the run with its `result` text, or fails it for the error subtypes
 * (`error_max_turns`, `error_during_execution`…) with its errors, and gives the context window.
 * Partial `stream_event` messages (`includePartialMessages`) are skipped: the complete assistant
 * message that follows carries the same content. Imports nothing from the SDK.
 *
 * @returns The card's final status once the stream ended.
 * An abort ends the card cancelled: pass the query's `abortController.signal` as `signal`; without
 * it the SDK's `AbortError` is still recognised (see `isAbortError`).
 *
 * @throws Whatever iterating the query throws (after the card shows it failed, or cancelled for an abort).
 */
export function mirrorClaudeAgent(messages: AsyncIterable<ClaudeAgentMessage>, card: ProgressCard, options: ClaudeAgentMirrorOptions = {}): Promise<LiveRunResult> {
  return mirrorStream<unknown>(messages, card, claudeAgentMapper(options, options.onRecordError), options.signal);
}
export { claudeAgentMapper } from './map-messages.js';
export { canUseToolOnCard, type CardPermissionOptions, type ClaudePermissionContext, type ClaudePermissionResult } from './permission.js';
