import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import {
  ChannelConfigError,
  FEATURE_SWITCHES_SHAPE,
  MissingEnvError,
  TIMING_OVERRIDES_SHAPE,
  defineChannel,
  z,
  type CardView,
  type RendererSettings,
} from '../../src/plugin/index.js';
import { rollOverMarginMs } from '../../src/plugin/stream-contract.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

class ChatConfigError extends ChannelConfigError {
  override readonly name = 'ChatConfigError';
}

const seen: { rendering?: RendererSettings; options?: unknown } = {};

/** A channel as an author outside the repo writes it: the memory channel's parts behind a bot-token config. */
const chat = defineChannel({
  id: 'chat',
  configSchema: z
    .object({
      botToken: z.string().min(5),
      chatId: z.string().min(1),
      hooks: z.object({ secret: z.string(), port: z.number() }).strict().optional(),
      ...TIMING_OVERRIDES_SHAPE,
      ...FEATURE_SWITCHES_SHAPE,
    })
    .strict(),
  env: [
    { name: 'CHAT_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the bot token' },
    { name: 'CHAT_ID', field: 'chatId', required: true, hint: 'the chat cards go to' },
  ],
  secrets: ['botToken', 'hooks.secret'],
  defaults: { tickMs: 3000, budget: [{ limit: 20, intervalMs: 60_000 }], perCardIntervalMs: 1000, debounceMs: 2500 },
  credentials: 'the bot token (CHAT_BOT_TOKEN)',
  configError: ChatConfigError,
  switchDefaults: { monthlyQuota: 9000 },
  create: ({ rendering, options }: { rendering: RendererSettings; options: { note?: string } }) => {
    seen.rendering = rendering;
    seen.options = options;
    const parts = memoryChannel({ id: 'chat' });
    return { renderer: parts.renderer, transport: parts.transport };
  },
});

const base = { botToken: 'sekrit-123', chatId: '42' };

describe('defineChannel', () => {
  it('refuses a streaming lifetime whose roll-over margin leaves the stream no life, naming the field and value', () => {
    const streamed = (lifetime: { maxAgeMs?: number; idleExpiryMs?: number; rollOverMarginMs?: number }) =>
      defineChannel({
        id: 'streamed',
        configSchema: z.object({}).strict(),
        defaults: { tickMs: 3000, budget: [{ limit: 20, intervalMs: 60_000 }], perCardIntervalMs: 1000, debounceMs: 2500 },
        create: () => {
          const parts = memoryChannel({ id: 'streamed', streaming: { lifetime } });
          return { renderer: parts.renderer, transport: parts.transport, streaming: parts.streaming! };
        },
      })({});
    expect(() => streamed({ maxAgeMs: 60_000, rollOverMarginMs: 60_000 })).toThrow(/streamed streaming lifetime rollOverMarginMs = 60000 .*half the stream's shorter limit \(60000 ms\)/);
    expect(() => streamed({ idleExpiryMs: 10_000, rollOverMarginMs: 6_000 })).toThrow(/rollOverMarginMs = 6000/);
    expect(() => streamed({ maxAgeMs: -1 })).toThrow(/streaming lifetime maxAgeMs = -1/);
    expect(streamed({ maxAgeMs: 60_000, rollOverMarginMs: 30_000 }).streaming?.lifetime.maxAgeMs).toBe(60_000);
    // A plugin built without defineChannel: the core never rolls over with more than half the life left.
    expect(rollOverMarginMs({ maxAgeMs: 60_000, rollOverMarginMs: 60_000 })).toBe(30_000);
    expect(rollOverMarginMs({ maxAgeMs: 60_000 })).toBe(6_000);
  });

  it('refuses a per-card interval that leaves no call after a stream\'s start before its roll-over margin, naming the field and value; half the life is kept', () => {
    const streamed = (perCardIntervalMs: number | undefined, maxAgeMs: number) =>
      defineChannel({
        id: 'streamed',
        configSchema: z.object({ perCardIntervalMs: z.number().optional() }).strict(),
        defaults: { tickMs: 3000, budget: [{ limit: 20, intervalMs: 60_000 }], perCardIntervalMs: 1000, debounceMs: 2500 },
        configError: ChatConfigError,
        create: () => {
          const parts = memoryChannel({ id: 'streamed', streaming: { lifetime: { maxAgeMs } } });
          return { renderer: parts.renderer, transport: parts.transport, streaming: parts.streaming! };
        },
      })(perCardIntervalMs === undefined ? {} : { perCardIntervalMs });
    // A 1 s life less its 100 ms margin: the default 1 s interval could not reach a stream after its start.
    expect(() => streamed(undefined, 1000)).toThrow(ChatConfigError);
    expect(() => streamed(undefined, 1000)).toThrow(/^streamed perCardIntervalMs = 1000 .*maxAgeMs 1000 − 100 = 900 ms/);
    expect(() => streamed(1800, 2000)).toThrow(/perCardIntervalMs = 1800/);
    // Half the life or more still works: the call after a stream's start is its stop.
    expect(streamed(1000, 2000).streaming?.lifetime.maxAgeMs).toBe(2000);
    expect(streamed(1799, 2000).streaming?.lifetime.maxAgeMs).toBe(2000);
    // A plugin built without defineChannel is refused when the composition resolves its settings.
    const raw = memoryChannel({ streaming: { lifetime: { maxAgeMs: 1000 } }, overrides: { perCardIntervalMs: 1000 } });
    expect(() => createProgressCards({ channels: [raw], logger: silentLogger, env: {} })).toThrow(/memory perCardIntervalMs = 1000: must be under the stream's life/);
  });

  it('validates the config, naming the field and hiding secrets, in the channel\'s error class', () => {
    expect(() => chat({ ...base, chatId: '' })).toThrow(ChatConfigError);
    expect(() => chat({ ...base, chatId: '' })).toThrow(/^chat chatId = "" /);
    expect(() => chat({ ...base, botToken: 'abc' })).toThrow('chat botToken = <hidden>');
    expect(() => chat({ ...base, tickMs: 0 })).toThrow(/chat tickMs = 0/);
  });

  it('resolves switches from config and env, and hands the renderer its settings', () => {
    const plugin = chat({ ...base, locale: 'en', footerStyle: 'debug' }, { env: { CHAT_CARD_TOOL_FOLD_AFTER: '4' }, note: 'x' });
    expect(seen.rendering).toEqual({ locale: 'en', footerStyle: 'debug', toolFoldAfter: 4 });
    expect(seen.options).toEqual({ note: 'x' });
    expect(plugin.switches).toMatchObject({ locale: 'en', toolFoldAfter: 4, monthlyQuota: 9000, progressive: true });
    expect(() => chat(base, { env: { CHAT_CARD_PROGRESSIVE: 'maybe' } })).toThrow(/chat progressive \(CHAT_CARD_PROGRESSIVE\) = "maybe"/);
  });

  it('reads timing overrides and the declared defaults and credentials', () => {
    const plugin = chat({ ...base, tickMs: 5000, budget: [{ limit: 5, intervalMs: 1000 }] }, { env: {} });
    expect(plugin.overrides).toEqual({ tickMs: 5000, budget: [{ limit: 5, intervalMs: 1000 }] });
    expect(plugin.defaults.tickMs).toBe(3000);
    expect(plugin.credentials).toBe('the bot token (CHAT_BOT_TOKEN)');
    expect(chat.defaults?.budget).toEqual([{ limit: 20, intervalMs: 60_000 }]);
  });

  it('never shows a secret in plugin.config, inspect or JSON', () => {
    const plugin = chat({ ...base, hooks: { secret: 'hook-sekrit', port: 8080 } }, { env: {} });
    expect(plugin.config).toMatchObject({ botToken: '<hidden>', chatId: '42', hooks: { secret: '<hidden>', port: 8080 } });
    for (const text of [inspect(plugin, { depth: 10 }), JSON.stringify(plugin), String(JSON.stringify({ plugin }))]) {
      expect(text).not.toContain('sekrit');
      expect(text).toContain('chat');
    }
  });

  it('builds fromEnv from the named variables, overrides winning, bad fields naming their variable', () => {
    expect(() => chat.fromEnv({}, { env: { CHAT_ID: '1' } })).toThrow(MissingEnvError);
    expect(() => chat.fromEnv({}, { env: {} })).toThrow('chat needs the environment variables CHAT_BOT_TOKEN, CHAT_ID (unset or empty)');
    const plugin = chat.fromEnv({ chatId: '7' }, { env: { CHAT_BOT_TOKEN: 'sekrit-123', CHAT_CARD_LANG: 'en' } });
    expect(plugin.config.chatId).toBe('7');
    expect(plugin.switches.locale).toBe('en');
    expect(() => chat.fromEnv({}, { env: { CHAT_BOT_TOKEN: 'abc', CHAT_ID: '1' } })).toThrow('chat botToken (CHAT_BOT_TOKEN) = <hidden>');
  });

  it('refuses an id that cannot name env variables', () => {
    expect(() => defineChannel({ ...chatDefinitionStub(), id: 'My Chat' })).toThrow(/defineChannel id = "My Chat"/);
  });
});

function chatDefinitionStub() {
  const parts = memoryChannel();
  return { id: 'x', configSchema: z.object({}), defaults: parts.defaults, create: () => ({ renderer: parts.renderer, transport: parts.transport }) };
}

describe('the channel decides what the core writes on its cards', () => {
  it('tool lines, statuses and notices the core hands the renderer follow the channel locale, whatever the run says', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ switches: { locale: 'en' } });
    const views: CardView[] = [];
    const render = channel.renderer.render;
    const spied = { ...channel, renderer: { ...channel.renderer, render: (view: CardView) => {
      views.push(view);
      return render(view);
    } } };
    const cards = createProgressCards({ channels: [spied], env: {} });
    const card = cards.open('memory', undefined, { locale: 'zh-CN' });
    card.push({ type: 'run.started', title: 'build', locale: 'zh-CN' });
    card.toolStarted('t1', 'shell', { command: 'npm run build' });
    await settle(1000);
    card.toolFinished('t1', 'built 42 pages');
    card.complete('done');
    await card.finalDelivery;
    const last = views.at(-1)!;
    expect(last.locale).toBe('en');
    expect(last.tools[0]!.text).not.toMatch(/[完成执行]/);
    expect(last.tools[0]!.text).toMatch(/done|finished/i);
  });

  it('a refused credential is worded for the channel: a bot-token channel is not told about an app id', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const plugin = chat(base, { env: {} });
    const memory = memoryChannel({ id: 'chat' });
    const channel = { ...plugin, transport: { ...memory.transport, refreshAuth: async () => undefined } };
    memory.failNext({ op: 'send', failure: { kind: 'auth', detail: '401 Unauthorized' }, times: 10 });
    const logger = recordingLogger({ levels: ['warn', 'error'] });
    const cards = createProgressCards({ channels: [channel], logger, env: {} });
    const card = cards.open('chat');
    card.start({ title: 'run' });
    await settle(20_000);
    card.complete('done');
    await settle(20_000);
    const line = logger.lines.find((l) => l.includes('credentials refused'));
    expect(line).toContain('check the bot token (CHAT_BOT_TOKEN)');
    expect(line).not.toMatch(/app id/);
  });
});
