import { randomUUID } from 'node:crypto';
import { defineChannel, type ChannelPlugin, type DefinedChannel } from '@progresscard/core/plugin';
import { WECOM_DEFAULTS, WeComConfigError, WeComConfigSchema, type WeComConfig } from './config.js';
import { WECOM_ENV_VARIABLES } from './env.js';
import { WeComCallbacks } from './interaction/callbacks.js';
import { CallbackEnvelope } from './interaction/envelope.js';
import type { WeComPayload } from './render/payload.js';
import { createWeComRenderer } from './render/renderer.js';
import { decodeEncodingAesKey } from './transport/crypto.js';
import type { FetchLike } from './transport/response-url.js';
import { WeComTransport, type WeComTarget } from './transport/transport.js';
import { Turns } from './transport/turns.js';

/** The WeCom channel plugin: `config` is the validated config with the token and key `<hidden>`. */
export type WeComPlugin = DefinedChannel<'wecom', WeComPayload, WeComTarget | string, WeComConfig>;

/** Factory options besides `env`: what tests and embedders swap. */
export interface WeComOptions {
  /** Posts to `response_url` (default the global `fetch`). */
  readonly fetch?: FetchLike;
  /** Epoch ms now (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * The WeCom (企业微信) AI bot channel, callback mode. WeCom pulls: the bot answers a user's message
 * with a stream and WeCom polls it; each poll is answered from the card's latest state, so the card
 * is the stream's content (https://developer.work.weixin.qq.com/document/path/100719). A run longer
 * than the stream's 6 minutes ends its stream with a note and sends its final through the message's
 * `response_url`. Buttons are a `button_interaction` template card; clicks reach the core.
 *
 * ```ts
 * const channel = wecom({ token: 'T0k3n', encodingAESKey: '…43 chars…', port: 8080 });
 * const cards = createProgressCards({ channels: [channel] });
 * const callbacks = wecomCallbacks(channel);
 * callbacks.onMessage((message) => runAgent(message.text, cards.open('wecom', message.target)));
 * await callbacks.listen(); // register the public URL in front of callbacks.url with WeCom
 * ```
 * @throws WeComConfigError naming the bad field and value (never the token or key).
 */
export const wecom = defineChannel<'wecom', typeof WeComConfigSchema, WeComPayload, WeComTarget | string, WeComOptions>({
  id: 'wecom',
  configSchema: WeComConfigSchema,
  env: WECOM_ENV_VARIABLES,
  secrets: ['token', 'encodingAESKey'],
  defaults: WECOM_DEFAULTS,
  credentials: 'the callback Token and EncodingAESKey (WECOM_BOT_TOKEN, WECOM_BOT_ENCODING_AES_KEY)',
  // The bot's aibotid when configured (it is in every callback the bot receives); none otherwise:
  // the Token and EncodingAESKey are secrets.
  appIdentity: (config) => config.botId,
  configError: WeComConfigError,
  create: ({ config, rendering, options }) => {
    const now = options.now ?? Date.now;
    const turns = new Turns(config.responseUrlTtlMs, now);
    const renderer = createWeComRenderer(rendering);
    const transport = new WeComTransport({
      turns,
      streamWindowMs: config.streamWindowMs,
      pollGoneAfterMs: config.pollGoneAfterMs,
      responseUrlTtlMs: config.responseUrlTtlMs,
      requestTimeoutMs: config.requestTimeoutMs,
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      now,
    });
    const envelope = new CallbackEnvelope(config.token, decodeEncodingAesKey(config.encodingAESKey), config.replayWindowMs, now);
    const interaction = new WeComCallbacks({
      envelope,
      ...(config.botId === undefined ? {} : { botId: config.botId }),
      host: config.host,
      port: config.port,
      path: config.path,
      turns,
      transport,
      renderer,
      now,
      newStreamId: () => `pc${randomUUID().replaceAll('-', '')}`,
    });
    return { renderer, transport, interaction };
  },
});

/**
 * The callback URL of a plugin built by {@link wecom}: listen on it, and hear the users' messages.
 * @throws TypeError when `plugin` was not built by `wecom`.
 */
export function wecomCallbacks(plugin: ChannelPlugin): WeComCallbacks {
  if (plugin.interaction instanceof WeComCallbacks) return plugin.interaction;
  throw new TypeError(`wecomCallbacks: plugin ${JSON.stringify(plugin.id)} was not built by wecom()`);
}
