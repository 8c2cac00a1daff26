import type { LimitWindow } from '../common/rate-limiter.js';

/** Slack limits the emulator enforces. Durations in ms. */
export interface SlackLimits {
  /**
   * chat.postMessage per channel: "generally allows posting one message per second per channel",
   * short bursts allowed (https://api.slack.com/methods/chat.postMessage, Rate limits: Special).
   * Default 1/s averaged over a minute: 60 per 60 000 ms.
   */
  readonly postMessageWindows: readonly LimitWindow[];
  /** chat.update is Tier 3, "50+ per minute" per app per workspace (https://api.slack.com/apis/rate-limits). Default 50/min. */
  readonly updateWindows: readonly LimitWindow[];
  /** Message `text` at most 40 000 characters (https://api.slack.com/methods/chat.postMessage "Truncating content"). */
  readonly maxTextChars: number;
  /** At most 50 blocks per message (https://api.slack.com/reference/block-kit/blocks). */
  readonly maxBlocks: number;
  /** Section `text` at most 3 000 characters (https://api.slack.com/reference/block-kit/blocks#section). */
  readonly maxSectionTextChars: number;
  /** Header text at most 150 characters (https://api.slack.com/reference/block-kit/blocks#header). */
  readonly maxHeaderChars: number;
  /** Context block at most 10 elements (https://api.slack.com/reference/block-kit/blocks#context). */
  readonly maxContextElements: number;
  /** chat.startStream and chat.stopStream are Tier 2, "20+ per minute" (https://docs.slack.dev/reference/methods/chat.startStream). Default 20/min each. */
  readonly streamStartStopWindows: readonly LimitWindow[];
  /** chat.appendStream is Tier 4, "100+ per minute" (https://docs.slack.dev/reference/methods/chat.appendStream). Default 100/min. */
  readonly appendStreamWindows: readonly LimitWindow[];
  /**
   * A stream refuses appends and stops this long after it started (`message_not_in_streaming_state`).
   * Not documented: field reports measure about 300 s, absolute (slackapi/node-slack-sdk#2702,
   * slackapi/python-slack-sdk#1859). Default 300 000.
   */
  readonly streamLifetimeMs: number;
  /** `markdown_text` (and a `markdown` block's text) at most 12 000 characters (chat.startStream arguments). */
  readonly maxMarkdownChars: number;
  /** Tasks of a `plan` block: 50 (third-party, slack-morphism; Slack's page gives none, UNCONFIRMED). */
  readonly maxPlanTasks: number;
  /** Rows of a `table` block: 100 (https://docs.slack.dev/reference/block-kit/blocks/table-block). */
  readonly maxTableRows: number;
  /** Cells of a `table` row, and its `column_settings`: 20 (same page). */
  readonly maxTableCells: number;
  /** An assistant thread status clears after two minutes without a message (assistant.threads.setStatus). Default 120 000. */
  readonly statusTimeoutMs: number;
  /**
   * Largest file files.getUploadURLExternal accepts (`length`), in bytes; larger answers
   * `file_upload_size_restricted`. Slack's help centre gives 1 GB per file
   * (https://slack.com/help/articles/201330736-Add-files-to-Slack; not in the method reference).
   */
  readonly maxFileBytes: number;
}

/** The documented values. */
export const DEFAULT_SLACK_LIMITS: SlackLimits = {
  postMessageWindows: [{ limit: 60, intervalMs: 60_000 }],
  updateWindows: [{ limit: 50, intervalMs: 60_000 }],
  maxTextChars: 40_000,
  maxBlocks: 50,
  maxSectionTextChars: 3000,
  maxHeaderChars: 150,
  maxContextElements: 10,
  streamStartStopWindows: [{ limit: 20, intervalMs: 60_000 }],
  appendStreamWindows: [{ limit: 100, intervalMs: 60_000 }],
  streamLifetimeMs: 300_000,
  maxMarkdownChars: 12_000,
  maxPlanTasks: 50,
  maxTableRows: 100,
  maxTableCells: 20,
  statusTimeoutMs: 120_000,
  maxFileBytes: 1024 * 1024 * 1024,
};
