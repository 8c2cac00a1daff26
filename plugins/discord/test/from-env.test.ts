import { MissingEnvError } from '@progresscard/core/plugin';
import { describe, expect, it } from 'vitest';
import { DiscordConfigError, discord } from '../src/index.js';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.discord-bot-token-secret';
const ENV = { DISCORD_BOT_TOKEN: TOKEN, DISCORD_CHANNEL_ID: ' 1250000000000000100\n' };

describe('discord.fromEnv', () => {
  it('reads the documented variables and hides the token', () => {
    const plugin = discord.fromEnv({ tickMs: 5000 }, { env: { ...ENV, DISCORD_API_URL: 'http://127.0.0.1:9/api/v10' } });
    expect(plugin.config).toMatchObject({ channelId: '1250000000000000100', apiUrl: 'http://127.0.0.1:9/api/v10', tickMs: 5000, botToken: '<hidden>' });
    expect(JSON.stringify(plugin)).not.toContain(TOKEN);
    expect(discord.fromEnv({}, { env: { ...ENV, DISCORD_PUBLIC_KEY: 'ab'.repeat(32) } }).interaction).toBeDefined();
  });

  it('names every missing variable; a bad value names the field and variable, never the token', () => {
    expect(() => discord.fromEnv({}, { env: {} })).toThrow(MissingEnvError);
    expect(() => discord.fromEnv({}, { env: {} })).toThrow('discord needs the environment variables DISCORD_BOT_TOKEN, DISCORD_CHANNEL_ID (unset or empty)');
    const attempt = () => discord.fromEnv({}, { env: { ...ENV, DISCORD_CHANNEL_ID: 'general' } });
    expect(attempt).toThrow(DiscordConfigError);
    expect(attempt).toThrow(/^discord channelId \(DISCORD_CHANNEL_ID\) = "general" /);
    expect(() => discord.fromEnv({}, { env: { ...ENV, DISCORD_PUBLIC_KEY: 'nope' } })).toThrow(/interactions/);
  });
});
