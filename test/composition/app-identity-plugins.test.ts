/**
 * Every bundled plugin names the app (bot) behind it where the platform gives a stable, non-secret
 * id (`ChannelPlugin.appIdentity`), so that a card stored under one app of an app pool is continued
 * on its message only by that app after a deploy changed the pool (apps are named by position:
 * dropping a middle app renames the ones after it). Feishu's `app_id`, Slack's app id (configured:
 * a bot token does not carry it), Telegram's bot id (the number before the token's colon),
 * Discord's application id (configured, or read from the token), DingTalk's AppKey, WeCom's
 * aibotid, Teams' Microsoft App ID. The core's routing by identity is tested in the core
 * (app-pool-identity.test.ts); here: each plugin's identity is there, differs per app, stays the
 * same across pool positions and carries no secret.
 */
import { describe, expect, it } from 'vitest';
import { appPool, type ChannelPlugin } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { teams } from '@progresscard/plugin-teams';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';

const SECRET = 'Secret0Secret1Secret2Secret3Secret4';
/** A Discord bot token whose first part is base64 of the bot's id (the secret parts made up). */
const discordToken = (id: string) => `${Buffer.from(id).toString('base64')}.GhIjKl.${SECRET}`;

/** Three apps of each plugin, and the identity each must name. */
const APPS: Record<string, { apps: () => ChannelPlugin[]; identities: string[] }> = {
  feishu: { apps: () => ['cli_a', 'cli_b', 'cli_c'].map((appId) => feishu({ appId, appSecret: SECRET, receiveId: 'oc_1' }, { env: {} })), identities: ['cli_a', 'cli_b', 'cli_c'] },
  slack: {
    apps: () => ['A01', 'A02', 'A03'].map((appId) => slack({ botToken: `xoxb-${SECRET}-${appId}`, channel: 'C01', appId, interactivity: { signingSecret: SECRET, port: 0 } }, { env: {} })),
    identities: ['A01', 'A02', 'A03'],
  },
  telegram: { apps: () => ['111', '222', '333'].map((id) => telegram({ botToken: `${id}:${SECRET}`, chatId: -1001 }, { env: {} })), identities: ['111', '222', '333'] },
  'discord (from the token)': {
    apps: () => ['1250000000000000001', '1250000000000000002', '1250000000000000003'].map((id) => discord({ botToken: discordToken(id), channelId: '1250000000000000100' }, { env: {} })),
    identities: ['1250000000000000001', '1250000000000000002', '1250000000000000003'],
  },
  'discord (configured)': {
    apps: () => ['1250000000000000011', '1250000000000000012', '1250000000000000013'].map((applicationId) => discord({ botToken: `emulator-token.${SECRET}`, channelId: '1250000000000000100', applicationId }, { env: {} })),
    identities: ['1250000000000000011', '1250000000000000012', '1250000000000000013'],
  },
  dingtalk: {
    apps: () => ['ding_a', 'ding_b', 'ding_c'].map((appKey) => dingtalk({ appKey, appSecret: SECRET, cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cid' } }, { env: {} })),
    identities: ['ding_a', 'ding_b', 'ding_c'],
  },
  wecom: {
    apps: () => ['aib_a', 'aib_b', 'aib_c'].map((botId) => wecom({ token: 'tokenA', encodingAESKey: 'a'.repeat(43), botId, port: 0 }, { env: {} })),
    identities: ['aib_a', 'aib_b', 'aib_c'],
  },
  teams: {
    apps: () =>
      ['11111111-1111-1111-1111-111111111111', '22222222-2222-2222-2222-222222222222', '33333333-3333-3333-3333-333333333333'].map((appId) =>
        teams({ appId, appPassword: SECRET, tenantId: 't', conversationId: '19:abc@thread.v2' }, { env: {} }),
      ),
    identities: ['11111111-1111-1111-1111-111111111111', '22222222-2222-2222-2222-222222222222', '33333333-3333-3333-3333-333333333333'],
  },
};

describe('each bundled plugin names its app', () => {
  for (const [channel, { apps, identities }] of Object.entries(APPS)) {
    it(`${channel}: each app of a pool keeps its own identity when a middle app is dropped, and no identity holds a secret`, () => {
      const [a, b, c] = apps() as [ChannelPlugin, ChannelPlugin, ChannelPlugin];
      const before = appPool([a, b, c]).apps;
      const after = appPool([a, c]).apps;
      expect(before.map((app) => app.appIdentity)).toEqual(identities);
      // C moved from position 3 to 2: its id now names B's old position, its identity is still C's.
      expect(after[1]!.id).toBe(before[1]!.id);
      expect(after.map((app) => app.appIdentity)).toEqual([identities[0], identities[2]]);
      for (const app of before) expect(app.appIdentity).not.toContain(SECRET);
    });
  }

  it('without a configured id where the platform credentials carry none, the app is known by position only', () => {
    expect(slack({ botToken: 'xoxb-1-2-abc', channel: 'C01' }, { env: {} }).appIdentity).toBeUndefined();
    expect(discord({ botToken: 'progresscard-emulator.discord.bot-token', channelId: '1250000000000000100' }, { env: {} }).appIdentity).toBeUndefined();
    expect(wecom({ token: 'tokenA', encodingAESKey: 'a'.repeat(43), port: 0 }, { env: {} }).appIdentity).toBeUndefined();
  });
});
