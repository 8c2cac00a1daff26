import type { EnvVariable } from '@progresscard/core/plugin';
import type { DiscordConfigInput } from './config.js';

/** Port of the interactions endpoint when `DISCORD_PUBLIC_KEY` turns buttons on. */
export const DISCORD_INTERACTIONS_PORT = 3001;

/**
 * The environment variables `discord.fromEnv()` reads, in order. Required: `DISCORD_BOT_TOKEN` and
 * `DISCORD_CHANNEL_ID`; optional: `DISCORD_API_URL` (an emulator's) and `DISCORD_PUBLIC_KEY` (card
 * buttons: the interactions endpoint is served on {@link DISCORD_INTERACTIONS_PORT}).
 */
export const DISCORD_ENV_VARIABLES: readonly EnvVariable<DiscordConfigInput>[] = [
  { name: 'DISCORD_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the bot token from the Developer Portal' },
  { name: 'DISCORD_CHANNEL_ID', field: 'channelId', required: true, hint: 'the channel cards go to (a snowflake)' },
  { name: 'DISCORD_API_URL', field: 'apiUrl', required: false, hint: 'the REST base, default https://discord.com/api/v10' },
  {
    name: 'DISCORD_PUBLIC_KEY',
    field: 'interactions',
    required: false,
    hint: `the application's public key: turns card buttons on (the endpoint is served on port ${DISCORD_INTERACTIONS_PORT} at /discord/interactions)`,
    toValue: (publicKey) => ({ publicKey, port: DISCORD_INTERACTIONS_PORT }),
  },
];
