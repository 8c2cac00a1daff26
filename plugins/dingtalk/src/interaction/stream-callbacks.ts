import { DWClient, TOPIC_CARD, type DWClientDownStream } from 'dingtalk-stream';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core/plugin';
import type { DingTalkCardPayload } from '../render/payload.js';
import { callbackResponse, clickFromCardCallback } from './card-callback.js';

/** Options of {@link DingTalkStreamCallbacks}. */
export interface DingTalkStreamCallbacksOptions {
  readonly appKey: string;
  readonly appSecret: string;
  /** The API base URL (DingTalk's or the emulator's); the gateway is `/v1.0/gateway/connections/open` under it. */
  readonly baseUrl: string;
  readonly contentKey: string;
  readonly render: (view: CardView) => DingTalkCardPayload;
}

/**
 * The official `dingtalk-stream` client with a configurable gateway: the SDK posts to the fixed
 * `https://api.dingtalk.com/v1.0/gateway/connections/open`; this one posts to `baseUrl`'s, so the
 * emulator can stand in. The WebSocket protocol, pings and reconnects stay the SDK's.
 */
class GatewayClient extends DWClient {
  constructor(
    config: ConstructorParameters<typeof DWClient>[0],
    private readonly gatewayUrl: string,
  ) {
    super(config);
  }

  override async getEndpoint(): Promise<this> {
    const answer = await fetch(this.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ clientId: this.config.clientId, clientSecret: this.config.clientSecret, ua: this.config.ua ?? '', subscriptions: this.config.subscriptions }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await answer.json().catch(() => ({}))) as { endpoint?: string; ticket?: string };
    if (!answer.ok || !body.endpoint || !body.ticket) throw new Error(`Stream mode gateway refused the connection (HTTP ${answer.status})`);
    // The SDK keeps the socket URL in a field its typings mark private; `_connect` opens it.
    (this as unknown as { dw_url: string }).dw_url = `${body.endpoint}?ticket=${body.ticket}`;
    return this;
  }
}

/**
 * Card callbacks over DingTalk Stream mode (https://open.dingtalk.com/document/development/introduction-to-stream-mode):
 * subscribes to the card callback topic (`/v1.0/card/instances/callback`), maps each callback to a
 * click and answers it (`socketCallBackResponse`) with the card's new variables and the user's notice.
 */
export class DingTalkStreamCallbacks implements ChannelInteraction {
  #client: GatewayClient | undefined;

  /** Private (`#`): the options hold the secrets, kept out of `util.inspect` and JSON. */
  readonly #options: DingTalkStreamCallbacksOptions;

  constructor(options: DingTalkStreamCallbacksOptions) {
    this.#options = options;
  }

  async start(onClick: ClickHandler): Promise<void> {
    if (this.#client) return;
    const o = this.#options;
    // An own subscriptions list: the SDK's default one is a module-level array it pushes into.
    const config = { clientId: o.appKey, clientSecret: o.appSecret, subscriptions: [] } as ConstructorParameters<typeof DWClient>[0];
    const client = new GatewayClient(config, `${o.baseUrl.replace(/\/+$/, '')}/v1.0/gateway/connections/open`);
    client.registerCallbackListener(TOPIC_CARD, async (message: DWClientDownStream) => {
      // A callback that fails is answered empty: it never breaks the connection or later clicks.
      let answer: unknown = {};
      try {
        const click = clickFromCardCallback(message.data, message.headers.messageId);
        if (click) answer = callbackResponse(await onClick(click), o.render, o.contentKey);
      } catch {
        answer = {};
      }
      client.socketCallBackResponse(message.headers.messageId, answer);
    });
    this.#client = client;
    await client.getEndpoint();
    await client._connect();
  }

  async stop(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    client?.disconnect();
  }
}
