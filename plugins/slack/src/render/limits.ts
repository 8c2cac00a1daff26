/**
 * Block Kit and message limits the renderer keeps to, so Slack never answers `invalid_blocks` or
 * `msg_too_long`:
 * - 50 blocks per message (https://api.slack.com/reference/block-kit/blocks);
 * - 3000 characters per section text (https://api.slack.com/reference/block-kit/blocks#section);
 * - 150 characters of header text (https://api.slack.com/reference/block-kit/blocks#header);
 * - 10 elements per context block (https://api.slack.com/reference/block-kit/blocks#context);
 * - 40 000 characters of `text` (https://api.slack.com/methods/chat.postMessage, "Truncating content");
 * - a `table` block of at most 100 rows of at most 20 cells, and one table per message
 *   (https://docs.slack.dev/reference/block-kit/blocks/table-block; the one-table rule and its
 *   answer `only_one_table_allowed` come from third-party reports, vercel/chat#194, openclaw/openclaw#57717);
 * - a `plan` block's tasks: at most 50, ids unique (third-party: slack-morphism; UNCONFIRMED in Slack's
 *   docs, which give no limit), and no `plan` next to a `task_card` in one message (third party:
 *   a GitLab MR; UNCONFIRMED);
 * - task titles: Slack gives no limit; third-party reports of a cap near 256 characters (UNCONFIRMED).
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
  /** Rows of a `table` block, its header row included. */
  readonly maxTableRows: number;
  /** Cells of a `table` block's row (and its `column_settings`). */
  readonly maxTableColumns: number;
  /** Tasks of a `plan` block; a longer plan is drawn as a mrkdwn checklist. */
  readonly maxPlanTasks: number;
  /** Code points of a task's title. */
  readonly maxTaskTitleChars: number;
  /** Tool calls drawn as `task_card` blocks (the latest ones; earlier ones are counted on a context line). */
  readonly maxTaskCards: number;
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
  maxTableRows: 100,
  maxTableColumns: 20,
  maxPlanTasks: 50,
  maxTaskTitleChars: 250,
  maxTaskCards: 8,
};
