import { describe, expect, it } from 'vitest';
import { channelList, main, type DoctorReport } from '../src/index.js';
import { memoryIO } from './helpers.js';

// The config layer of `progresscard doctor` with bad values: nothing is sent, so no network.
describe('progresscard doctor: every config problem in one run', () => {
  it('a bad required value does not hide the others: each bad required, optional and switch value is listed, secrets hidden, exit 1', async () => {
    const { io, out } = memoryIO({
      TELEGRAM_BOT_TOKEN: 'not-a-token-secret',
      TELEGRAM_CHAT_ID: 'general',
      TELEGRAM_API_ROOT: 'ftp://bots.example',
      TELEGRAM_CARD_PROGRESSIVE: 'maybe',
    });
    const code = await main(['doctor', '--channel', 'telegram', '--no-send'], io);
    expect(code).toBe(1);
    const text = out();
    expect(text).toMatch(/❌ config\s+4 bad values/);
    expect(text).toContain('botToken (TELEGRAM_BOT_TOKEN) = <hidden>');
    expect(text).toContain('chatId (TELEGRAM_CHAT_ID) = "general"');
    expect(text).toContain('apiRoot (TELEGRAM_API_ROOT) = "ftp://bots.example" (must be an http(s) URL)');
    expect(text).toContain('(TELEGRAM_CARD_PROGRESSIVE) = "maybe" (expected on or off)');
    expect(text).not.toContain('not-a-token-secret');
    expect(text).toContain('doctor: failed (telegram/config)');
  });

  it('a missing required variable and a bad value show together', async () => {
    const { io, out } = memoryIO({ FEISHU_APP_ID: 'cli_x', FEISHU_APP_SECRET: 'super-secret-value', FEISHU_DOMAIN: 'Lark' });
    expect(await main(['doctor', '--channel', 'feishu', '--no-send'], io)).toBe(1);
    const text = out();
    expect(text).toMatch(/❌ config\s+missing FEISHU_CHAT_ID; 1 bad value/);
    expect(text).toContain('feishu domain (FEISHU_DOMAIN) = "Lark"');
    expect(text).toContain('set FEISHU_CHAT_ID (values are never printed)');
    expect(text).not.toContain('super-secret-value');
  });

  it('every channel is reported in the same run, each with its own problems', async () => {
    const { io, out } = memoryIO({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_CHANNEL_ID: 'C1', SLACK_API_URL: 'nope', DISCORD_BOT_TOKEN: 't', DISCORD_CHANNEL_ID: 'not-a-snowflake', DISCORD_CARD_FOOTER_STYLE: 'loud' });
    expect(await main(['doctor', '--no-send', '--json'], io)).toBe(1);
    const report = JSON.parse(out()) as DoctorReport;
    expect(report.channels.map((c) => c.channel)).toEqual(channelList().map((d) => d.id));
    const config = (id: string) => report.channels.find((c) => c.channel === id)!.checks[0]!;
    expect(config('slack').summary).toContain('(SLACK_API_URL) = "nope"');
    const discord = [config('discord').summary, ...config('discord').details].join('\n');
    expect(discord).toContain('(DISCORD_CHANNEL_ID) = "not-a-snowflake"');
    expect(discord).toContain('(DISCORD_CARD_FOOTER_STYLE) = "loud"');
    expect(config('teams').summary).toBe('missing TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_CONVERSATION_ID');
  });

  it("each channel's stand-ins fill every required variable with a value its plugin accepts", () => {
    for (const descriptor of channelList()) {
      const standIns = descriptor.real.standIns ?? {};
      expect(Object.keys(standIns).sort(), descriptor.id).toEqual([...descriptor.real.requiredEnv].sort());
      expect(() => descriptor.real.plugin(standIns, { switchEnv: standIns }), descriptor.id).not.toThrow();
    }
  });
});
