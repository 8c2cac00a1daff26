/**
 * `@progresscard/plugin-discord`: the Discord channel. Build it with {@link discord} and hand it to
 * `createProgressCards({ channels: [...] })`. Renderer, guards and transport are internal.
 */
export { discord, type DiscordPlugin } from './plugin.js';
export { DISCORD_ENV_VARIABLES, DISCORD_INTERACTIONS_PORT } from './env.js';
export { DISCORD_DEFAULTS, DiscordConfigSchema, DiscordConfigError, type DiscordConfig, type DiscordConfigInput } from './config.js';
export type { DiscordMessage, DiscordButton } from './render/payload.js';
export type { DiscordTarget } from './transport/transport.js';
export { DISCORD_ERROR_KINDS } from './transport/classify.js';
export { discordMessageProblems } from './render/guards.js';
export { DiscordInteractions, type DiscordInteractionsOptions } from './interaction/endpoint.js';
export { verifyDiscordRequest, discordPublicKey } from './interaction/signature.js';
