/** Block Kit blocks the plugin uses (https://api.slack.com/reference/block-kit/blocks). */
export type SlackBlock =
  | { readonly type: 'header'; readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji?: boolean } }
  | { readonly type: 'section'; readonly block_id?: string; readonly text: SlackText }
  | { readonly type: 'context'; readonly block_id?: string; readonly elements: readonly SlackText[] }
  | { readonly type: 'divider' }
  | SlackPlanBlock
  | SlackTaskCardBlock
  | SlackTableBlock
  | { readonly type: 'actions'; readonly block_id?: string; readonly elements: readonly SlackButton[] }
  | {
      readonly type: 'input';
      readonly block_id?: string;
      /** True: pressing Enter in the element sends a `block_actions` payload (an input in a message). */
      readonly dispatch_action: true;
      readonly label: SlackText;
      readonly element: {
        readonly type: 'plain_text_input';
        readonly action_id: string;
        readonly placeholder?: SlackText;
        readonly max_length?: number;
        readonly dispatch_action_config?: { readonly trigger_actions_on: readonly ('on_enter_pressed' | 'on_character_entered')[] };
      };
    };

/**
 * A task's state: "pending", "in_progress", "complete" or "error"
 * (https://docs.slack.dev/reference/block-kit/blocks/task-card-block/; `completed` is refused).
 */
export type SlackTaskStatus = 'pending' | 'in_progress' | 'complete' | 'error';

/** A `rich_text` block of plain text sections (a task card's `details`, a table cell). */
export interface SlackRichText {
  readonly type: 'rich_text';
  readonly elements: readonly { readonly type: 'rich_text_section'; readonly elements: readonly { readonly type: 'text'; readonly text: string }[] }[];
}

/**
 * A task card (https://docs.slack.dev/reference/block-kit/blocks/task-card-block/): `task_id` and
 * `title` (plain text) required, `details` / `output` a single `rich_text`, `status` optional.
 * Used alone in a message or as a `plan`'s task: Slack refuses `plan` and `task_card` blocks side
 * by side in one message (UNCONFIRMED in Slack's docs; a third-party report, see limits.ts).
 */
interface SlackTaskCard {
  readonly task_id: string;
  readonly title: string;
  readonly status?: SlackTaskStatus;
  readonly details?: SlackRichText;
  readonly output?: SlackRichText;
}

/** A `task_card` block: one tool call. */
export interface SlackTaskCardBlock extends SlackTaskCard {
  readonly type: 'task_card';
  readonly block_id?: string;
}

/** A `plan` block (https://docs.slack.dev/reference/block-kit/blocks/plan-block/): a title and its tasks. */
export interface SlackPlanBlock {
  readonly type: 'plan';
  readonly block_id?: string;
  readonly title: string;
  readonly tasks: readonly SlackTaskCard[];
}

/**
 * A `table` block (https://docs.slack.dev/reference/block-kit/blocks/table-block): at most 100 rows
 * of at most 20 cells (`raw_text` or `rich_text`), `column_settings` at most 20 (`align` left,
 * center or right).
 */
export interface SlackTableBlock {
  readonly type: 'table';
  readonly block_id?: string;
  readonly rows: readonly (readonly SlackRichText[])[];
  readonly column_settings?: readonly { readonly align?: 'left' | 'center' | 'right'; readonly is_wrapped?: boolean }[];
}

/**
 * A Block Kit button (https://api.slack.com/reference/block-kit/block-elements#button): `text` at
 * most 75 characters, `action_id` at most 255, `value` at most 2000; `style` `primary` or `danger`.
 */
export interface SlackButton {
  readonly type: 'button';
  readonly action_id: string;
  readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji?: boolean };
  readonly value: string;
  readonly style?: 'primary' | 'danger';
}

/** A Block Kit text object. */
export interface SlackText {
  readonly type: 'mrkdwn' | 'plain_text';
  readonly text: string;
}

/**
 * The payload of one Slack message: `text` (notification and fallback text) and, for the rich
 * card, `blocks`. The plain-text fallback has no blocks.
 */
export interface SlackMessage {
  readonly text: string;
  readonly blocks?: readonly SlackBlock[];
}
