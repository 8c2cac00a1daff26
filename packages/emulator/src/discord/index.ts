// Only Discord-prefixed names leave this folder, so `export *` next to the other platforms cannot clash.
export { DISCORD_ROUTES, DISCORD_ROUTE_NAMES, DiscordErrors, type DiscordRoute, type DiscordError } from './codes.js';
export { DEFAULT_DISCORD_LIMITS, type DiscordLimits } from './limits.js';
export { DiscordBuckets, type DiscordBucketLimit, type DiscordRateDecision } from './buckets.js';
export type { DiscordAttachment, DiscordMessageState } from './messages.js';
export * from './emulator.js';
export { DISCORD_INTERACTION_ROUTE, type DiscordClick, type DiscordClickResult, type DiscordInteractionsConfig } from './interactions.js';
