import { AnnouncedLimits, defineChannel, type DefinedChannel } from '@progresscard/core/plugin';
import { discordBotKey, discordBudgetKeys } from './budget-keys.js';
import { botIdFromToken, DISCORD_DEFAULTS, DiscordConfigError, DiscordConfigSchema, type DiscordConfig } from './config.js';
import { DISCORD_ENV_VARIABLES } from './env.js';
import { CustomIdRegistry } from './interaction/custom-id.js';
import { DiscordInteractions } from './interaction/endpoint.js';
import type { DiscordMessage } from './render/payload.js';
import { createDiscordRenderer } from './render/renderer.js';
import { DiscordTransport, type DiscordTarget } from './transport/transport.js';

/** The Discord channel plugin: `config` is the validated config with the bot token `<hidden>`. */
export type DiscordPlugin = DefinedChannel<'discord', DiscordMessage, DiscordTarget | string, DiscordConfig>;

/** Limits learned per plugin instance; the budget keys and the transport share them. */
const learned = new WeakMap<DiscordConfig, AnnouncedLimits>();
const limitsOf = (config: DiscordConfig): AnnouncedLimits => {
  let limits = learned.get(config);
  if (!limits) {
    limits = new AnnouncedLimits(discordBotKey(config.botToken), config.probeBudget);
    learned.set(config, limits);
  }
  return limits;
};

/**
 * The Discord channel: one rich embed per card, created with `POST /channels/{id}/messages` and
 * edited with `PATCH`, follow-up replies for long answers, buttons through a verified
 * interactions endpoint; every route paced by the limits Discord announces in its
 * `X-RateLimit-*` headers. `discord.fromEnv()` reads {@link DISCORD_ENV_VARIABLES}.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [discord({ botToken: '…', channelId: '1250000000000000100' })] });
 * ```
 * @throws DiscordConfigError naming the bad field and value (never the token).
 */
export const discord = defineChannel({
  id: 'discord',
  configSchema: DiscordConfigSchema,
  env: DISCORD_ENV_VARIABLES,
  secrets: ['botToken'],
  defaults: DISCORD_DEFAULTS,
  credentials: 'the bot token (DISCORD_BOT_TOKEN)',
  appIdentity: (config) => config.applicationId ?? botIdFromToken(config.botToken),
  configError: DiscordConfigError,
  budget: (config) => discordBudgetKeys(config.botToken, config.channelId, limitsOf(config)),
  create: ({ config, rendering }) => {
    const customIds = new CustomIdRegistry();
    const renderer = createDiscordRenderer({ ...rendering, controls: config.interactions ? 'buttons' : 'text', customIds });
    const endpoint = { apiUrl: config.apiUrl, botToken: config.botToken, requestTimeoutMs: config.requestTimeoutMs, limits: limitsOf(config) };
    return {
      renderer,
      transport: new DiscordTransport(endpoint, config.channelId, { fileRoots: config.fileRoots }),
      ...(config.interactions ? { interaction: new DiscordInteractions({ ...config.interactions, customIds }) } : {}),
    };
  },
});
