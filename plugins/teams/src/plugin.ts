import { defineChannel, type ChannelContext, type DefinedChannel, type StreamingMode } from '@progresscard/core/plugin';
import { teamsBudgetKeys } from './budget-keys.js';
import { TEAMS_DEFAULTS, TeamsConfigError, TeamsConfigSchema, type TeamsConfig } from './config.js';
import { TEAMS_ENV_VARIABLES } from './env.js';
import { TeamsInvokeEndpoint } from './interaction/invoke-endpoint.js';
import type { TeamsMessage } from './render/payload.js';
import { createTeamsRenderer, type TeamsRenderer } from './render/renderer.js';
import { TeamsStreamTransport } from './transport/stream.js';
import type { TeamsTarget } from './transport/target.js';
import { TeamsTransport } from './transport/transport.js';

/** The Teams channel plugin: `config` is the validated config with the client secret `<hidden>`. */
export type TeamsPlugin = DefinedChannel<'teams', TeamsMessage, TeamsTarget, TeamsConfig>;

/**
 * Teams' native streaming for cards in 1:1 chats ("Streaming bot messages are supported only in one-on-one
 * chats", https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux): the whole text in every
 * chunk (`full`), tool calls as the informative line before the answer starts, Teams' own Stop button, and
 * a life of two minutes (the core rolls over to a fresh stream before it).
 */
function teamsStreaming(config: TeamsConfig, transport: TeamsTransport, renderer: TeamsRenderer): StreamingMode<TeamsTarget> {
  return {
    // Closed before its two minutes even when quiet: a stream left to time out refuses its final with 403 "Content
    // stream finished due to exceeded streaming time" (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux);
    // Microsoft's Agents SDK then switches to updating the activity (microsoft/Agents-for-net#958). What the chat
    // shows of a stream left unclosed is UNCONFIRMED: closing it keeps the card's end on every stream.
    lifetime: { maxAgeMs: config.streaming.lifetimeMs, closeBeforeMaxAge: true },
    text: 'full',
    chunks: ['tasks'],
    platformStop: true,
    // The closing message holds the card's share of the answer (a message is at most 40 KB); the rest follows in replies.
    continuationReplies: true,
    appliesTo: (card) => transport.conversation(card.target).type === 'personal',
    transport: new TeamsStreamTransport(transport, renderer),
  };
}

/**
 * The Microsoft Teams channel: in channels and group chats a card is an Adaptive Card sent to the
 * conversation and updated in place over the Bot Connector REST API; in 1:1 chats it streams natively
 * (`streaming.mode`, default `native`). Answers longer than a card continue in reply messages. With
 * `invoke`, open questions and Stop are `Action.Execute` buttons whose clicks arrive on the bot's messaging
 * endpoint, each checked for its Bot Framework JWT ({@link TeamsInvokeEndpoint}).
 * `teams.fromEnv()` reads {@link TEAMS_ENV_VARIABLES}.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [teams({ appId: '…', appPassword: '…', conversationId: '19:…@thread.v2' })] });
 * ```
 * @throws TeamsConfigError naming the bad field and value (never the secret).
 */
export const teams = defineChannel({
  id: 'teams',
  configSchema: TeamsConfigSchema,
  env: TEAMS_ENV_VARIABLES,
  secrets: ['appPassword'],
  defaults: TEAMS_DEFAULTS,
  credentials: "the bot's app id and client secret (TEAMS_APP_ID, TEAMS_APP_PASSWORD)",
  // The Microsoft App ID is the bot's id (the activities' recipient id is "28:<app id>"); the password is the secret.
  appIdentity: (config) => config.appId,
  configError: TeamsConfigError,
  budget: (config) => teamsBudgetKeys(config.appId, config.conversationId, config.conversationBudget),
  create: ({ config, rendering }: ChannelContext<TeamsConfig, object>) => {
    const renderer = createTeamsRenderer({ ...rendering, controls: config.invoke ? 'buttons' : 'text' });
    const transport = new TeamsTransport(config);
    return {
      renderer,
      transport,
      ...(config.streaming.mode === 'native' ? { streaming: teamsStreaming(config, transport, renderer) } : {}),
      ...(config.invoke ? { interaction: new TeamsInvokeEndpoint({ ...config.invoke, appId: config.appId, render: (view) => renderer.render(view).card }) } : {}),
    };
  },
});
