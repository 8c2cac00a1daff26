/**
 * Every secret a product hands to progresscard (app secrets, bot tokens, Feishu's callback
 * verification token and encrypt key, DingTalk's callback `apiSecret`, Slack's signing secret,
 * Telegram's webhook secret_token, WeCom's callback Token and EncodingAESKey, Teams' app password, the
 * Redis URL's password) stays out of everything a product might dump or log: `util.inspect` at any
 * depth (non-enumerable and symbol keys included), `JSON.stringify`, and the log lines. The test
 * builds every plugin with every callback mode, a composition with an open card on each, and a Redis
 * store on a real `redis-server`, then walks them and every export of every package.
 */
import { inspect } from 'node:util';
import * as core from '@progresscard/core';
import { createProgressCards, memoryChannel, type ChannelPlugin, type ProgressCard } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import * as dingtalkPackage from '@progresscard/plugin-dingtalk';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import * as feishuPackage from '@progresscard/plugin-feishu';
import { feishu } from '@progresscard/plugin-feishu';
import * as slackPackage from '@progresscard/plugin-slack';
import { slack } from '@progresscard/plugin-slack';
import * as redisPackage from '@progresscard/redis';
import { redisStore } from '@progresscard/redis';
import * as sources from '@progresscard/sources';
import * as discordPackage from '@progresscard/plugin-discord';
import { discord } from '@progresscard/plugin-discord';
import * as teamsPackage from '@progresscard/plugin-teams';
import { teams } from '@progresscard/plugin-teams';
import * as telegramPackage from '@progresscard/plugin-telegram';
import { telegram } from '@progresscard/plugin-telegram';
import * as wecomPackage from '@progresscard/plugin-wecom';
import { wecom } from '@progresscard/plugin-wecom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../packages/redis/test/support/test-redis.js';

/** Each secret is distinct so a failure names which one leaked. */
const SECRETS = {
  feishuAppSecret: 'fs-app-secret-6b1d0c',
  feishuVerificationToken: 'fs-verification-token-93a7e2',
  feishuEncryptKey: 'fs-encrypt-key-4c58f1',
  dingtalkAppSecret: 'dt-app-secret-0e72b9',
  dingtalkApiSecret: 'dt-api-secret-d41a63',
  slackBotToken: 'xoxb-slack-bot-token-7f3c20',
  slackSigningSecret: 'slack-signing-secret-a90d44',
  redisPassword: 'redis-password-5e61bb',
  telegramBotToken: '123456789:telegram-bot-token-2b8e51',
  telegramSecretToken: 'telegram-secret-token-c7d302',
  discordBotToken: 'discord-bot-token-91fa6e.discord-secret',
  wecomToken: 'wecomCallbackToken5d21',
  wecomEncodingAESKey: 'wecomAesKey0123456789abcdefghijklmnopqrstuv',
  teamsAppPassword: 'teams-app-password-e83c17',
} as const;

/** JSON.stringify that survives cycles, BigInts and throwing getters. */
function stringify(value: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return String(v);
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[cycle]';
        seen.add(v);
      }
      return v;
    });
  } catch (error) {
    return `[unserialisable: ${String(error)}]`;
  }
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Every string `util.inspect` could reach from `value` at any depth, with `showHidden`: own
 * properties (non-enumerable and symbol keys too, getters not called), Map and Set entries, and
 * for an object that describes itself for inspect (an own `util.inspect.custom`) that description.
 * Walking is faster than formatting: an open card's full inspect runs to 100+ MB of text.
 */
function reachableStrings(root: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      found.push(value);
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    const custom = Object.getOwnPropertyDescriptor(value, INSPECT)?.value as unknown;
    if (typeof custom === 'function') {
      try {
        stack.push((custom as (...args: unknown[]) => unknown).call(value, Number.POSITIVE_INFINITY, { ...inspect.defaultOptions, depth: Number.POSITIVE_INFINITY, showHidden: true, stylize: (text: string) => text }, inspect));
        continue;
      } catch {
        // A prototype's own hook (Blob.prototype's) refuses a `this` that is not an instance: walk it.
      }
    }
    if (value instanceof Map) for (const [k, v] of value) stack.push(k, v);
    if (value instanceof Set) for (const v of value) stack.push(v);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'string') found.push(key);
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
    }
    stack.push(Object.getPrototypeOf(value));
  }
  return found;
}

/** Every way a product might dump `value`: what inspect can reach, a shallow inspect, JSON. */
function dumps(value: unknown): string[] {
  return [reachableStrings(value).join('\n'), inspect(value, { depth: 6, showHidden: true }), String(stringify(value))];
}

function expectNoSecret(label: string, texts: readonly string[]): void {
  for (const text of texts) {
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (text.includes(secret)) expect.fail(`${label} shows ${name}: …${text.slice(Math.max(0, text.indexOf(secret) - 200), text.indexOf(secret) + 40)}…`);
    }
  }
}

function plugins(): Record<string, ChannelPlugin> {
  return {
    feishuHttp: feishu({
      appId: 'cli_secret_walk',
      appSecret: SECRETS.feishuAppSecret,
      receiveId: 'oc_x',
      callbacks: { mode: 'http', port: 0, verificationToken: SECRETS.feishuVerificationToken, encryptKey: SECRETS.feishuEncryptKey },
    }) as ChannelPlugin,
    feishuLongConnection: feishu({ appId: 'cli_secret_walk2', appSecret: SECRETS.feishuAppSecret, receiveId: 'oc_x', callbacks: { mode: 'long-connection' } }) as ChannelPlugin,
    dingtalkHttp: dingtalk({
      appKey: 'dingsecretwalk',
      appSecret: SECRETS.dingtalkAppSecret,
      cardTemplateId: 't.schema',
      target: { type: 'group', openConversationId: 'cidX==' },
      callbacks: { mode: 'http', port: 0, apiSecret: SECRETS.dingtalkApiSecret },
    }) as ChannelPlugin,
    dingtalkStream: dingtalk({
      appKey: 'dingsecretwalk2',
      appSecret: SECRETS.dingtalkAppSecret,
      cardTemplateId: 't.schema',
      target: { type: 'group', openConversationId: 'cidX==' },
      callbacks: { mode: 'stream' },
    }) as ChannelPlugin,
    slack: slack({ botToken: SECRETS.slackBotToken, channel: 'C0123', interactivity: { signingSecret: SECRETS.slackSigningSecret, port: 0 } }) as ChannelPlugin,
    telegram: telegram({ botToken: SECRETS.telegramBotToken, chatId: -1001234567890, webhook: { secretToken: SECRETS.telegramSecretToken, port: 0 } }) as ChannelPlugin,
    discord: discord({ botToken: SECRETS.discordBotToken, channelId: '1250000000000000100' }) as ChannelPlugin,
    wecom: wecom({ token: SECRETS.wecomToken, encodingAESKey: SECRETS.wecomEncodingAESKey, botId: 'aib_secret_walk' }, { env: {} }) as ChannelPlugin,
    teams: teams({ appId: 'teams-secret-walk', appPassword: SECRETS.teamsAppPassword, serviceUrl: 'https://smba.example.test/teams/', conversationId: '19:walk@thread.v2' }, { env: {} }) as ChannelPlugin,
  };
}

describe('no secret of any plugin, card or store appears in inspect, JSON or logs', () => {
  let redis: TestRedis;
  let redisUrl: string;
  beforeAll(async () => {
    // Our own server requires the password; a REDIS_URL server's default user accepts any
    // password when none is set (AUTH with a password gives an error on Redis < 6).
    redis = await startTestRedis({ password: SECRETS.redisPassword });
    redisUrl = redis.owned ? redis.url : redis.url.replace('redis://', `redis://default:${SECRETS.redisPassword}@`);
  }, 30_000);
  afterAll(() => redis?.stop());

  it('every export of every package, before anything is built', () => {
    for (const [name, module] of Object.entries({ core, feishuPackage, dingtalkPackage, slackPackage, telegramPackage, discordPackage, wecomPackage, teamsPackage, redisPackage, sources })) {
      expectNoSecret(name, dumps(module));
    }
  });

  for (const [name, plugin] of Object.entries(plugins())) {
    it(`${name}: the plugin, its parts, a composition and an open card`, () => {
      const logger = recordingLogger();
      const cards = createProgressCards({ channels: [plugin], logger, env: {} });
      const card: ProgressCard = cards.open(plugin.id);
      card.push({ type: 'run.started', title: 'secret walk' });
      const parts = { plugin, config: (plugin as { config?: unknown }).config, transport: plugin.transport, renderer: plugin.renderer, interaction: plugin.interaction, cards, card };
      for (const [part, value] of Object.entries(parts)) expectNoSecret(`${name} ${part}`, dumps(value));
      expectNoSecret(`${name} ${String(plugin.interaction?.constructor.name)}`, dumps({ ...(plugin.interaction as object) }));
      expectNoSecret(`${name} logs`, [stringify(logger.lines ?? logger)]);
      void cards.shutdown({ deadlineMs: 0 } as never).catch(() => undefined);
    });
  }

  it('the Redis store (URL with a password, click relay subscribed), its parts, a card on it and its errors', async () => {
    const logs: string[] = [];
    const logger = { debug: (m: string) => logs.push(m), info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
    const store = await redisStore({ url: redisUrl, logger }).catch((error: unknown) => error);
    try {
      expect(store).not.toBeInstanceOf(Error);
      const redisStoreOf = store as Awaited<ReturnType<typeof redisStore>>;
      // The relay's pub/sub connection (a duplicate of the client) exists once it subscribed.
      await redisStoreOf.clicks.listen('secret-walk-owner', () => Promise.reject(new Error('no click is relayed here')));
      const subscriber = (redisStoreOf.clicks as unknown as { subscriber: Promise<unknown> }).subscriber;
      expect(subscriber).toBeDefined();
      expectNoSecret('redisStore', dumps(store));
      expectNoSecret('redisStore inspect depth 4', [inspect(store, { depth: 4 })]);
      for (const part of ['client', 'budgets', 'cards', 'clicks'] as const) expectNoSecret(`redisStore.${part}`, dumps(redisStoreOf[part]));
      expectNoSecret('redisStore.clicks.subscriber', dumps(await subscriber));
      const cards = createProgressCards({ channels: [memoryChannel()], store: redisStoreOf, logger: recordingLogger(), env: {} });
      const card = cards.open('memory');
      card.push({ type: 'run.started', title: 'secret walk' });
      expectNoSecret('card on a Redis store', dumps(card));
      await cards.shutdown({ deadlineMs: 0 } as never).catch(() => undefined);
      const refused = await redisStore({ url: `redis://default:${SECRETS.redisPassword}@127.0.0.1:1`, connectTimeoutMs: 200 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expectNoSecret('redisStore error', [String(refused), inspect(refused), stringify(refused)]);
      expectNoSecret('redisStore logs', logs);
    } finally {
      if (!(store instanceof Error)) await (store as { close(): Promise<void> }).close();
    }
  });
});
