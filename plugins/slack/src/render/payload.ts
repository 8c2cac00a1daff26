/** Block Kit blocks the plugin uses (https://api.slack.com/reference/block-kit/blocks). */
export type SlackBlock =
  | { readonly type: 'header'; readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji?: boolean } }
  | { readonly type: 'section'; readonly block_id?: string; readonly text: SlackText }
  | { readonly type: 'context'; readonly block_id?: string; readonly elements: readonly SlackText[] }
  | { readonly type: 'divider' }
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
