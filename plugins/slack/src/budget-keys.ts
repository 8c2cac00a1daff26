import { createHash } from 'node:crypto';
import type { BudgetKey, BudgetWindow, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import type { SlackTarget } from './transport/transport.js';

/**
 * `chat.postMessage` "generally allows posting one message per second per channel, while also
 * allowing short bursts" (https://api.slack.com/methods/chat.postMessage#rate_limiting); paced here
 * at one per second without the burst.
 */
const SLACK_PER_CHANNEL_WINDOWS: readonly BudgetWindow[] = [{ limit: 1, intervalMs: 1000 }];

/**
 * `chat.postMessage` is in Slack's "Special" tier, not Tier 3: "one message per second per channel,
 * while also maintaining a workspace-wide limit" (https://docs.slack.dev/apis/web-api/rate-limits).
 * Slack publishes no number for the workspace-wide limit. UNCONFIRMED: 300 posts a minute per app
 * per workspace (five channels posting at their documented rate) is an assumption, kept so that a
 * burst over many channels is still paced; a `ratelimited` answer's Retry-After pauses the key.
 */
const SLACK_WORKSPACE_POST_WINDOWS: readonly BudgetWindow[] = [{ limit: 300, intervalMs: 60_000 }];

/**
 * The stream methods' tiers (https://docs.slack.dev/reference/methods/chat.startStream and
 * siblings): chat.startStream and chat.stopStream Tier 2 ("20+ per minute"), chat.appendStream
 * Tier 4 ("100+ per minute"), each per app per workspace.
 */
const SLACK_STREAM_WINDOWS: Readonly<Record<'start' | 'append' | 'stop', readonly BudgetWindow[]>> = {
  start: [{ limit: 20, intervalMs: 60_000 }],
  append: [{ limit: 100, intervalMs: 60_000 }],
  stop: [{ limit: 20, intervalMs: 60_000 }],
};
const STREAM_METHODS = { start: 'chat.startStream', append: 'chat.appendStream', stop: 'chat.stopStream' } as const;

/**
 * The budgets of one Slack call, as Slack counts them (https://api.slack.com/apis/rate-limits): each
 * Web API method has its own limit per app per workspace: `chat.update` draws from its key with the
 * channel's `budget` windows (Tier 3, "50+ per minute"); `chat.postMessage` (Special tier) from the
 * workspace's posting key ({@link SLACK_WORKSPACE_POST_WINDOWS}) and its channel's key
 * ({@link SLACK_PER_CHANNEL_WINDOWS}), not from the Tier 3 budget. The
 * workspace is named by a short SHA-256 digest of the bot token, never the token itself (keys may
 * be stored in a shared `BudgetStore`).
 */
export function slackBudgetKeys(botToken: string, defaultChannel: string) {
  const app = `slack:${createHash('sha256').update(botToken).digest('hex').slice(0, 12)}`;
  return (call: BudgetedCall<SlackTarget | string>, settings: ChannelSettings): readonly BudgetKey[] => {
    if (call.stream) return [{ key: `${app}:${STREAM_METHODS[call.stream]}`, windows: SLACK_STREAM_WINDOWS[call.stream] }];
    if (call.kind === 'update') return [{ key: `${app}:chat.update`, windows: settings.budget }];
    // The plugin makes no image uploads or reactions; were it to, each would be a method of its own.
    if (call.kind !== 'send') return [{ key: `${app}:${call.kind}`, windows: settings.budget }];
    const channel = (typeof call.target === 'string' ? call.target : call.target?.channel) ?? defaultChannel;
    return [
      { key: `${app}:chat.postMessage`, windows: SLACK_WORKSPACE_POST_WINDOWS },
      { key: `slack:channel:${channel}`, windows: SLACK_PER_CHANNEL_WINDOWS },
    ];
  };
}
