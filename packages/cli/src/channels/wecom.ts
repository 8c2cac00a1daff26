import { createServer } from 'node:net';
import { DEFAULT_WECOM_BOT, startWeComEmulator, type WeComEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { WECOM_ENV_VARIABLES, WeComConfigError, wecom, wecomCallbacks, type WeComPayload, type WeComPlugin } from '@progresscard/plugin-wecom';
import { CliUsageError } from '../errors.js';
import { renderWeComMessage, wecomCardState } from '../preview/render-wecom.js';
import type { ChannelDescriptor } from './descriptor.js';
import { stringsIn } from './doctor-support.js';

/** WeCom's stream limit, in bytes of UTF-8 (https://developer.work.weixin.qq.com/document/path/101031). */
const STREAM_BYTES = 20_480;

/**
 * WeCom (企业微信) AI bot, callback mode: WeCom pulls. A card answers a user's message as a stream
 * WeCom polls about once a second for 6 minutes; a longer run's final follows through the
 * message's `response_url`. The emulated channel has an emulated user send a message for every card
 * the CLI opens, so the card has a stream to answer on.
 */
export const wecomChannel: ChannelDescriptor<'wecom', WeComEmulator> = {
  id: 'wecom',
  label: 'WeCom AI bot',
  emulated: {
    start: async (port) => {
      const emulator = await startWeComEmulator({ ...DEFAULT_WECOM_BOT, port });
      CALLBACK_PORTS.set(emulator, await freePort());
      return emulator;
    },
    plugin: (emulator, settings) =>
      withEmulatedUsers(
        wecom({ ...DEFAULT_WECOM_BOT, tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? {} }),
        emulator,
      ),
    env: (emulator) => {
      const callbackPort = CALLBACK_PORTS.get(emulator) ?? 0;
      keepUsersWaiting(emulator, `http://127.0.0.1:${callbackPort}/wecom/callback`);
      return [
        { name: 'WECOM_BOT_TOKEN', value: DEFAULT_WECOM_BOT.token },
        { name: 'WECOM_BOT_ENCODING_AES_KEY', value: DEFAULT_WECOM_BOT.encodingAESKey },
        { name: 'WECOM_BOT_ID', value: DEFAULT_WECOM_BOT.botId },
        { name: 'WECOM_CALLBACK_PORT', value: String(callbackPort), note: 'the emulator calls the bot here; emulated users message it once it answers the URL check' },
      ];
    },
    pluginHint: () => `wecom({ token, encodingAESKey }); emulator.connect(wecomCallbacks(plugin).url)`,
  },
  real: {
    requiredEnv: WECOM_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { WECOM_BOT_TOKEN: DEFAULT_WECOM_BOT.token, WECOM_BOT_ENCODING_AES_KEY: DEFAULT_WECOM_BOT.encodingAESKey },
    variables: WECOM_ENV_VARIABLES,
    optionalEnv: WECOM_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return waitingForUsers(wecom.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env: settings.switchEnv ?? env }));
      } catch (error) {
        throw error instanceof WeComConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set WECOM_BOT_TOKEN and WECOM_BOT_ENCODING_AES_KEY from the AI bot\'s API mode settings (智能机器人 · API 模式)',
        'serve the callback URL (WECOM_CALLBACK_PORT, path /wecom/callback) behind a public URL and enter it in the console: WeCom checks it with a GET',
      ],
      listening: 'the callback URL is listening (callbacks are checked with msg_signature, replays refused, bodies decrypted)',
      caveats: ['WeCom has no API to check the Token and EncodingAESKey: doctor checks their shape only; the console\'s URL check proves them'],
    },
    /** Callback mode has no credential API: the key must decode to an AES-256 key. */
    checkCredentials: async (env) => {
      wecom.parseConfig({ token: env.WECOM_BOT_TOKEN?.trim() ?? '', encodingAESKey: env.WECOM_BOT_ENCODING_AES_KEY?.trim() ?? '' });
    },
    payloadProblems: (payload) => {
      const message = payload as Partial<WeComPayload> | null;
      if (!message || typeof message !== 'object') return ['the payload is not an object'];
      return typeof message.markdown === 'string' ? [] : ['no markdown'];
    },
    limitProblems: (payload) => {
      const bytes = Buffer.byteLength((payload as WeComPayload).markdown ?? '', 'utf8');
      return bytes > STREAM_BYTES ? [`stream content is ${bytes} bytes (limit ${STREAM_BYTES})`] : [];
    },
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator.snapshot().map((m) => ({
        id: m.id,
        revision: `${m.calls.length}:${m.finished}:${m.expiredWith ?? ''}:${JSON.stringify(m.card ?? null).length}`,
        state: wecomCardState(m.text, m.expiredWith),
        createdAt: m.createdAt,
        updatedAt: m.calls.at(-1)?.at ?? m.createdAt,
        version: m.calls.length,
        render: () => renderWeComMessage(m.text, m.card, m.kind),
      })),
    calls: (emulator) => {
      let seq = 0;
      return emulator
        .snapshot()
        .flatMap((m) => m.calls.map((call) => ({ at: call.at, route: m.kind === 'stream' ? 'stream.refresh' : 'response_url', outcome: call.refused ? ('rejected' as const) : ('accepted' as const), status: 200, code: call.refused ? -1 : 0, key: m.id })))
        .sort((a, b) => a.at - b.at)
        .map((call) => ({ ...call, seq: ++seq }));
    },
    settled: (emulator) => emulator.settled(),
    isTokenRoute: () => false,
    /** errcode 45009 "api freq out of limit" (https://developer.work.weixin.qq.com/document/path/90313). */
    isRateLimited: (call) => call.code === 45009,
    finalPayload: (emulator, messageId) => {
      const held = emulator.snapshot().find((m) => m.id === messageId);
      return held ? { markdown: held.text, ...(held.card ? { template_card: held.card } : {}) } : undefined;
    },
    async click(emulator, click) {
      const message = emulator.snapshot().find((m) => m.id === click.cardId);
      const button = (message?.card as { button_list?: { text: string; key: string }[] } | undefined)?.button_list?.find((b) => b.text === click.button);
      if (!message || !button) return { ok: false, message: `no button ${click.button} on ${click.cardId}` };
      const result = await emulator.click(message.id, click.user, button.key);
      return { ok: result.ok, message: result.reason ?? '' };
    },
  },
};

/**
 * The plugin with an emulated user behind it: the callback URL listens and the emulator is pointed
 * at it; before a card's first send (the CLI opens cards for no message) a new user sends the bot
 * a message, whose stream the card answers.
 */
function withEmulatedUsers(plugin: WeComPlugin, emulator: WeComEmulator): WeComPlugin {
  const callbacks = wecomCallbacks(plugin);
  const transport = plugin.transport;
  const keys = new Set<string>();
  let users = 0;
  let listening: Promise<void> | undefined;
  const connect = () => {
    listening ??= callbacks.listen().then((url) => {
      emulator.connect(url);
      emulator.closeWith(() => callbacks.stop());
    });
    return listening;
  };
  return {
    ...plugin,
    transport: {
      send: async (request) => {
        if (request.target === undefined && request.replyTo === undefined && !request.replacing && !keys.has(request.idempotencyKey)) {
          keys.add(request.idempotencyKey);
          await connect();
          await emulator.sendUserMessage({ userid: `cli-user-${++users}`, text: '@bot (progresscard replay)' });
        }
        return transport.send(request);
      },
      update: (request) => transport.update(request),
      classify: (error) => transport.classify(error),
    },
  };
}

/** How long a `--real` card waits for a user's message to answer (ms). */
const USER_WAIT_MS = 15_000;

/**
 * The plugin for `--real`: its callback URL listens from the first card on, and a card with no
 * message to answer yet waits up to {@link USER_WAIT_MS} for a user to message the bot (a card
 * answers the oldest waiting message).
 */
function waitingForUsers(plugin: WeComPlugin): WeComPlugin {
  const callbacks = wecomCallbacks(plugin);
  const transport = plugin.transport;
  let listening: Promise<string> | undefined;
  return {
    ...plugin,
    transport: {
      send: async (request) => {
        listening ??= callbacks.listen();
        await listening;
        for (const until = Date.now() + USER_WAIT_MS; ; ) {
          try {
            return await transport.send(request);
          } catch (error) {
            const noMessage = transport.classify(error).kind === 'target' && /no user message waits/.test(String((error as Error).message));
            if (!noMessage || Date.now() > until) throw error;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      },
      update: (request) => transport.update(request),
      classify: (error) => transport.classify(error),
    },
  };
}

/** The port the `emulator` command tells a `--real` bot to serve its callback URL on, per emulator. */
const CALLBACK_PORTS = new WeakMap<WeComEmulator, number>();

/** A free loopback port (listened on and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Users who keep messaging the bot, at most this many in all (`progresscard emulator` runs until Ctrl-C). */
const MAX_EMULATED_MESSAGES = 200;

/**
 * For a `--real` bot pointed at the emulator: once the bot answers WeCom's URL check at
 * `callbackUrl`, emulated users keep three messages waiting for an answer (a card takes the oldest),
 * as WeCom users message a bot before it can answer. Stops when the emulator closes.
 */
function keepUsersWaiting(emulator: WeComEmulator, callbackUrl: string): void {
  let closed = false;
  let sent = 0;
  emulator.closeWith(async () => {
    closed = true;
  });
  emulator.connect(callbackUrl);
  const tick = async () => {
    if (closed) return;
    if (emulator.waitingStreams() === 0 || sent === 0) {
      if (sent > 0 || (await emulator.verifyUrl())) {
        while (!closed && emulator.waitingStreams() < 3 && sent < MAX_EMULATED_MESSAGES) {
          sent += 1;
          const answered = await emulator.sendUserMessage({ userid: `user-${sent}`, text: '@bot (progresscard emulator)' }).catch(() => undefined);
          if (!answered?.ok) break;
        }
      }
    }
    if (!closed) setTimeout(() => void tick(), 200).unref();
  };
  void tick();
}
