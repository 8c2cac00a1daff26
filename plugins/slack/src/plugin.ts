import { defineChannel, type ChannelContext, type DefinedChannel, type StreamingMode } from '@progresscard/core/plugin';
import type { WebClient } from '@slack/web-api';
import { slackBudgetKeys } from './budget-keys.js';
import { SLACK_DEFAULTS, SlackConfigError, SlackConfigSchema, type SlackConfig } from './config.js';
import { SLACK_ENV_VARIABLES } from './env.js';
import type { SlackMessage } from './render/payload.js';
import { createSlackRenderer } from './render/renderer.js';
import { SlackTransport, type SlackTarget } from './transport/transport.js';
import { SlackInteractivity } from './interaction/interactivity.js';
import { SlackStreamTransport } from './transport/stream.js';

/** The Slack channel plugin. `config` is the validated config, the bot token and signing secret shown as `<hidden>`. */
export type SlackPlugin = DefinedChannel<'slack', SlackMessage, SlackTarget | string, SlackConfig>;

/** Options of {@link slack} that are not config (besides `env`, read for the switch variables `SLACK_CARD_*`). */
export interface SlackPluginOptions {
  /** A ready `@slack/web-api` client (then `apiUrl`, `requestTimeoutMs` and the no-retry settings are yours to set). */
  readonly client?: WebClient;
}

/**
 * Slack's native streaming mode: cards that reply in a thread (Slack streams only there) to a known
 * requester (or in a DM) stream with
 * text appended as deltas (`markdown_text` at most 12 000 characters a call,
 * https://docs.slack.dev/reference/methods/chat.appendStream), the plan and tool calls as chunks,
 * and Slack's own Stop. The lifetime is not documented: streams refuse appends about 5 minutes after
 * their start whatever is sent (slackapi/node-slack-sdk#2702; `streaming.lifetimeMs`).
 */
function channelOf(target: SlackTarget | string | undefined, configured: string): string {
  return (typeof target === 'string' ? target : target?.channel) ?? configured;
}

function slackStreaming(config: SlackConfig, transport: SlackStreamTransport): StreamingMode<SlackTarget | string> {
  return {
    lifetime: { maxAgeMs: config.streaming.lifetimeMs },
    text: 'append',
    chunks: ['plan', 'tasks'],
    platformStop: true,
    maxTextCharsPerCall: 12_000,
    // A stream in a channel needs its recipient ("Required when streaming to channels"); a DM does not.
    appliesTo: (card) => card.replyToMessage !== undefined && (card.requester !== undefined || channelOf(card.target, config.channel).startsWith('D')),
    transport,
  };
}

/**
 * The Slack channel: Block Kit cards posted with `chat.postMessage` and replaced with `chat.update`
 * through the official `@slack/web-api` client; an answer too long for one message continues in
 * thread replies (`renderContinuations`). A card opened with `replyTo` (a thread reply) streams
 * natively instead when Slack can address the stream (the run's `requester`, or a DM), see
 * `streaming.mode` (default `native`) and {@link SlackStreamTransport}.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [slack({ botToken: 'xoxb-…', channel: 'C0123ABC' })] });
 * // or from SLACK_BOT_TOKEN, SLACK_CHANNEL_ID (SLACK_ENV_VARIABLES), overrides winning:
 * const cards = createProgressCards({ channels: [slack.fromEnv({ tickMs: 5000 })] });
 * ```
 * @throws SlackConfigError naming the bad field and value (never the token), e.g. `slack channel = "general" (…)`;
 *   from `fromEnv` also the variable, and MissingEnvError naming every required variable unset or empty.
 */
export const slack = defineChannel({
  id: 'slack',
  configSchema: SlackConfigSchema,
  env: SLACK_ENV_VARIABLES,
  secrets: ['botToken', 'interactivity.signingSecret'],
  defaults: SLACK_DEFAULTS,
  budget: (config) => slackBudgetKeys(config.botToken, config.channel),
  credentials: 'the bot token (SLACK_BOT_TOKEN)',
  appIdentity: (config) => config.appId,
  configError: SlackConfigError,
  create: ({ config, rendering, options }: ChannelContext<SlackConfig, SlackPluginOptions>) => {
    const renderer = createSlackRenderer({ ...rendering, controls: config.interactivity ? 'buttons' : 'text', aiBlocks: config.aiBlocks });
    const transport = new SlackTransport(config, { client: options.client });
    return {
      renderer,
      transport,
      ...(config.streaming.mode === 'native' ? { streaming: slackStreaming(config, new SlackStreamTransport(transport.client, config, renderer)) } : {}),
      ...(config.interactivity ? { interaction: new SlackInteractivity({ ...config.interactivity, render: (view) => renderer.render(view) }) } : {}),
    };
  },
});
