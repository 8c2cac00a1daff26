import * as lark from '@larksuiteoapi/node-sdk';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core';
import type { FeishuCard } from '../render/card-types.js';
import { callbackResponse, clickFromCardAction } from './card-action.js';

/** Options of {@link FeishuLongConnectionCallbacks}. */
export interface FeishuLongConnectionOptions {
  readonly appId: string;
  readonly appSecret: string;
  /** SDK domain: `lark.Domain.Feishu`, `lark.Domain.Lark` or a base URL. */
  readonly domain: string | lark.Domain;
  readonly render: (view: CardView) => FeishuCard;
}

/**
 * Card callbacks over the official SDK's long connection (`WSClient` with an `EventDispatcher`
 * handling `card.action.trigger`; the handler's return value is the callback response, sent back
 * over the connection, due within 3 s:
 * https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/event-subscription-guide/callback-subscription/configure-callback-request-address).
 * No public URL is needed. The SDK fetches the connection endpoint from `/callback/ws/endpoint`
 * and speaks its protobuf frame protocol; the emulator does not speak it, so this path is
 * exercised against Feishu itself only (the HTTP mode is what the loopback tests cover).
 */
export class FeishuLongConnectionCallbacks implements ChannelInteraction {
  private client: lark.WSClient | undefined;

  constructor(private readonly options: FeishuLongConnectionOptions) {}

  async start(onClick: ClickHandler): Promise<void> {
    if (this.client) return;
    const dispatcher = new lark.EventDispatcher({}).register({
      'card.action.trigger': async (data: unknown) => {
        const click = clickFromCardAction(data);
        return click ? callbackResponse(onClick(click), this.options.render) : {};
      },
    } as Record<string, (data: unknown) => Promise<unknown>>);
    this.client = new lark.WSClient({ appId: this.options.appId, appSecret: this.options.appSecret, domain: this.options.domain, loggerLevel: lark.LoggerLevel.warn });
    await this.client.start({ eventDispatcher: dispatcher });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    client?.close({ force: true });
  }
}
