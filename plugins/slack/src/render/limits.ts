/**
 * Block Kit and message limits the renderer keeps to, so Slack never answers `invalid_blocks` or
 * `msg_too_long`:
 * - 50 blocks per message (https://api.slack.com/reference/block-kit/blocks);
 * - 3000 characters per section text (https://api.slack.com/reference/block-kit/blocks#section);
 * - 150 characters of header text (https://api.slack.com/reference/block-kit/blocks#header);
 * - 10 elements per context block (https://api.slack.com/reference/block-kit/blocks#context);
 * - 40 000 characters of `text` (https://api.slack.com/methods/chat.postMessage, "Truncating content").
 */
export interface SlackLimits {
  readonly maxBlocks: number;
  readonly maxSectionChars: number;
  readonly maxHeaderChars: number;
  readonly maxContextElements: number;
  readonly maxTextChars: number;
  /** Answer sections in the main message; the rest continues in thread replies. */
  readonly mainAnswerSections: number;
  /** Answer sections per thread reply. */
  readonly replyAnswerSections: number;
  /** Thread replies at most; what does not fit is cut with a notice. */
  readonly maxReplies: number;
}

/** The documented limits, and the plugin's split of the answer. */
export const SLACK_LIMITS: SlackLimits = {
  maxBlocks: 50,
  maxSectionChars: 3000,
  maxHeaderChars: 150,
  maxContextElements: 10,
  maxTextChars: 40_000,
  mainAnswerSections: 4,
  replyAnswerSections: 10,
  maxReplies: 5,
};
