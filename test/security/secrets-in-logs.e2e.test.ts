/**
 * A run with failures on each platform's emulator (over loopback HTTP): a refused update, revoked
 * access tokens that force a refresh. Nothing the product logs (debug lines included), the final
 * report, nor a dump of the plugin or the composition (`util.inspect`, `JSON.stringify`) may show
 * the app secret, the bot token or an access token the platform issued.
 */
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { createProgressCards, type ChannelPlugin, type FinalDelivery, type ProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_DINGTALK_APP, DEFAULT_SLACK_WORKSPACE, startDingTalkEmulator, startFeishuEmulator, startSlackEmulator } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';

/** JSON.stringify that survives cycles and BigInts. */
function stringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return String(v);
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[cycle]';
      seen.add(v);
    }
    return v;
  });
}

/** One platform: its plugin on a fresh emulator, the secrets to look for, and how to make calls fail. */
interface Platform {
  readonly plugin: ChannelPlugin;
  /** The app secret or bot token. */
  readonly secret: string;
  /** Access tokens the emulator issued so far. */
  issuedTokens(): string[];
  /** Refuses the next update with a server error. */
  failNextUpdate(): void;
  /** Revokes every issued token (the next call is refused as unauthorised, when the platform has tokens). */
  revokeTokens(): void;
  close(): Promise<void>;
}

const platforms: Record<string, () => Promise<Platform>> = {
  feishu: async () => {
    const appId = `cli_${randomBytes(8).toString('hex')}`;
    const appSecret = `secret-${randomBytes(12).toString('hex')}`;
    const emulator = await startFeishuEmulator({ apps: [{ appId, appSecret }] });
    return {
      plugin: feishu({ appId, appSecret, domain: emulator.baseUrl, receiveId: 'oc_team', perCardIntervalMs: 0 }),
      secret: appSecret,
      issuedTokens: () => emulator.tokens().map((issued) => issued.token),
      failNextUpdate: () => void emulator.faults.add({ route: 'im.message.patch', times: 1, respond: { status: 500, body: { code: 1, msg: 'internal error' } } }),
      revokeTokens: () => void emulator.revokeTokens(),
      close: () => emulator.close(),
    };
  },
  dingtalk: async () => {
    const emulator = await startDingTalkEmulator();
    return {
      plugin: dingtalk({
        appKey: DEFAULT_DINGTALK_APP.appKey,
        appSecret: DEFAULT_DINGTALK_APP.appSecret,
        cardTemplateId: 'secrets.schema',
        target: { type: 'group', openConversationId: 'cidSecrets==' },
        baseUrl: emulator.baseUrl,
        perCardIntervalMs: 0,
      }),
      secret: DEFAULT_DINGTALK_APP.appSecret,
      issuedTokens: () => emulator.tokens().map((issued) => issued.token),
      failNextUpdate: () => void emulator.faults.add({ route: 'card.update', times: 1, respond: { status: 500, body: { code: 'system.busy', message: 'system.busy' } } }),
      revokeTokens: () => void emulator.revokeTokens(),
      close: () => emulator.close(),
    };
  },
  slack: async () => {
    const emulator = await startSlackEmulator();
    return {
      plugin: slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: emulator.apiUrl, perCardIntervalMs: 0 }),
      secret: DEFAULT_SLACK_WORKSPACE.botToken,
      issuedTokens: () => [],
      failNextUpdate: () => void emulator.faults.add({ route: 'chat.update', times: 1, respond: { status: 500, body: { ok: false, error: 'internal_error' } } }),
      revokeTokens: () => undefined,
      close: () => emulator.close(),
    };
  },
};

describe('no secret or token in logs, reports or dumps after a run with failures', () => {
  for (const [name, start] of Object.entries(platforms)) {
    it(name, async () => {
      const platform = await start();
      const logger = recordingLogger();
      let cards: ProgressCards | undefined;
      try {
        cards = createProgressCards({ channels: [platform.plugin], logger, env: {}, retry: { finalRetryDelaysMs: [200, 400], updateRetryDelaysMs: [200, 400] } });
        const card = cards.open(name);
        card.start({ title: 'secrets' });
        card.toolStarted('c1', 'shell', { command: 'npm test' });
        await sleep(400);
        platform.failNextUpdate();
        card.answer('first part. ');
        await sleep(800);
        const tokens = platform.issuedTokens();
        platform.revokeTokens();
        card.answer('second part.');
        await sleep(400);
        card.complete('done');
        const final: FinalDelivery = await card.finalDelivery;
        expect(final.ok).toBe(true);
        // The run did fail on the way: the logs have something to say.
        expect(logger.lines.length).toBeGreaterThan(0);
        const secrets = [platform.secret, ...tokens, ...platform.issuedTokens()].filter((secret) => secret.length >= 8);
        expect(secrets.length).toBeGreaterThan(0);
        const dumps = [
          logger.lines.join('\n'),
          stringify(logger.entries),
          stringify(final),
          inspect(final, { depth: 10 }),
          inspect(platform.plugin, { depth: 10, showHidden: true }),
          stringify(platform.plugin),
          inspect(cards, { depth: 10, showHidden: true }),
          stringify(cards),
          stringify(cards.diagnostics()),
        ];
        for (const dump of dumps) for (const secret of secrets) expect(dump).not.toContain(secret);
      } finally {
        await cards?.shutdown();
        await platform.close();
      }
    });
  }
});
