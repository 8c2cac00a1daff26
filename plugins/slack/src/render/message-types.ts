/** Block Kit blocks the plugin uses (https://api.slack.com/reference/block-kit/blocks). */
export type SlackBlock =
  | { readonly type: 'header'; readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji?: boolean } }
  | { readonly type: 'section'; readonly block_id?: string; readonly text: SlackText }
  | { readonly type: 'context'; readonly block_id?: string; readonly elements: readonly SlackText[] }
  | { readonly type: 'divider' };

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
