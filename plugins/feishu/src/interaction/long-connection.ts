import * as lark from '@larksuiteoapi/node-sdk';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core/plugin';
import type { FeishuCard } from '../render/payload.js';
import { callbackResponse, clickFromCardAction } from './card-action.js';

/** How long {@link FeishuLongConnectionCallbacks.start} waits for the connection, in ms. */
const CONNECT_TIMEOUT_MS = 20_000;

/**
 * App ids the SDK's `WSClient` accepts: `cli_` and 16 hex digits. With any other id its `start()`
 * logs "invalid appId" and returns without connecting (`@larksuiteoapi/node-sdk` 1.74.0).
 */
const SDK_APP_ID = /^cli_[0-9a-fA-F]{16}$/;

/** Options of {@link FeishuLongConnectionCallbacks}. */
export interface FeishuLongConnectionOptions {
  readonly appId: string;
  readonly appSecret: string;
  /**
   * SDK domain: `lark.Domain.Feishu` (0), `lark.Domain.Lark` (1) or a base URL (e.g. the emulator's).
   * Typed by value, not by the SDK's enum, so the plugin's public types do not pull in the SDK's.
   */
  readonly domain: string | 0 | 1;
  readonly render: (view: CardView) => FeishuCard;
  /** How long `start` waits for the connection (ms, default 20000). */
  readonly connectTimeoutMs?: number;
}

/** Thrown by {@link FeishuLongConnectionCallbacks.start} when the long connection cannot be opened. */
export class FeishuLongConnectionError extends Error {
  override readonly name = 'FeishuLongConnectionError';
}

/**
 * Card callbacks over the official SDK's long connection: `WSClient` fetches its WebSocket URL from
 * `<domain>/callback/ws/endpoint` and speaks the SDK's protobuf frames; an `EventDispatcher`
 * handles `card.action.trigger`, and the handler's return value (toast and card) is the callback
 * response, sent back over the connection. Feishu wants it within 3 s and re-pushes otherwise; the
 * long connection is for self-built apps only
 * (https://open.feishu.cn/document/ukTMukTMukTM/uYDNxYjL2QTM24iN0EjN/event-subscription-configure-/request-url-configuration-case).
 * No public URL is needed. The emulator serves the same endpoint and frames over loopback.
 */
export class FeishuLongConnectionCallbacks implements ChannelInteraction {
  #client: lark.WSClient | undefined;

  /** Private (`#`): the options hold the secrets, kept out of `util.inspect` and JSON. */
  readonly #options: FeishuLongConnectionOptions;

  constructor(options: FeishuLongConnectionOptions) {
    this.#options = options;
  }

  /**
   * Connects and resolves once the connection is open.
   * @throws FeishuLongConnectionError when the app id is not one the SDK accepts, when Feishu
   *   refuses the connection (its code and message, e.g. wrong credentials), or when no connection
   *   opened within `connectTimeoutMs`.
   */
  async start(onClick: ClickHandler): Promise<void> {
    if (this.#client) return;
    const o = this.#options;
    if (!SDK_APP_ID.test(o.appId)) {
      throw new FeishuLongConnectionError(`feishu appId = ${JSON.stringify(o.appId)}: the SDK's long connection needs an app id of the form cli_ followed by 16 hex digits`);
    }
    const dispatcher = new lark.EventDispatcher({ loggerLevel: lark.LoggerLevel.warn }).register({
      'card.action.trigger': async (data: unknown) => {
        // A callback that fails is answered empty: it never breaks the connection or later clicks.
        try {
          const click = clickFromCardAction(data);
          return click ? callbackResponse(onClick(click), o.render) : {};
        } catch {
          return {};
        }
      },
    } as Record<string, (data: unknown) => Promise<unknown>>);
    const connected = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new FeishuLongConnectionError(`the long connection did not open within ${o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS} ms`)), o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      timer.unref();
      this.#client = new lark.WSClient({
        appId: o.appId,
        appSecret: o.appSecret,
        domain: o.domain,
        loggerLevel: lark.LoggerLevel.error,
        onReady: () => {
          clearTimeout(timer);
          resolve();
        },
        onError: (error) => {
          clearTimeout(timer);
          reject(new FeishuLongConnectionError(`Feishu refused the long connection: ${error.message}`));
        },
      });
    });
    void this.#client!.start({ eventDispatcher: dispatcher });
    try {
      await connected;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    client?.close({ force: true });
  }
}
