import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackServer, type CardView, type ChannelInteraction, type ClickHandler, callbackHeader, readCallbackBody } from '@progresscard/core/plugin';
import type { DingTalkCardPayload } from '../render/payload.js';
import { callbackResponse, clickFromCardCallback } from './card-callback.js';
import { SignedBodies } from './signed-bodies.js';

/** How far a signed callback's `timestamp` may be from now, in ms (DingTalk's robot callbacks: 1 hour). */
const MAX_CLOCK_SKEW_MS = 60 * 60 * 1000;

/** Options of {@link DingTalkHttpCallbacks}. */
export interface DingTalkHttpCallbacksOptions {
  readonly host: string;
  /** 0: any free port (see {@link DingTalkHttpCallbacks.url}). */
  readonly port: number;
  readonly path: string;
  /** The secret callbacks are signed with (registered as `apiSecret`); without it nothing is checked. */
  readonly apiSecret?: string;
  readonly contentKey: string;
  readonly render: (view: CardView) => DingTalkCardPayload;
  /**
   * Registers the listening URL for the route key (`POST /v1.0/card/callbacks/register`); called by
   * `start` once the server listens.
   */
  readonly register: (url: string) => Promise<void>;
  /** The URL to register instead of the listening one (a public URL in front of it). */
  readonly publicUrl?: string;
  /** Epoch ms (default `Date.now`), for the timestamp check. */
  readonly now?: () => number;
}

/**
 * True when `sign` is base64(HMAC-SHA256(key `apiSecret`, `timestamp + "\n" + apiSecret`)) and
 * `timestamp` (epoch ms) is within an hour of `now`: DingTalk's documented check for robot HTTP
 * callbacks (https://open.dingtalk.com/document/orgapp/receive-message). The register API says the
 * `apiSecret` "校验来源" (checks the source) without giving the scheme; that card callbacks use this
 * one is UNCONFIRMED.
 */
export function verifyDingTalkSignature(timestamp: string | undefined, sign: string | undefined, apiSecret: string, now: number): boolean {
  if (!timestamp || !sign || !/^\d{10,16}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > MAX_CLOCK_SKEW_MS) return false;
  const expected = Buffer.from(createHmac('sha256', apiSecret).update(`${timestamp}\n${apiSecret}`).digest('base64'));
  const given = Buffer.from(sign);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Card callbacks over HTTP, the alternative to Stream mode: serves the callback URL, registers it,
 * refuses requests whose signature is wrong or stale (HTTP 401), maps the `actionCallback` body
 * (`outTrackId`, `userId`, `content`) to a click and answers with the card's new variables and the
 * user's notice (the Stream answer's shape). A retried callback repeats the body, so the body's
 * SHA-256 is the delivery id and the retry is answered from memory. The signature covers only the
 * timestamp, so a signed pair of headers is taken with one body only (see `SignedBodies`).
 */
export class DingTalkHttpCallbacks implements ChannelInteraction {
  private readonly server: CallbackServer;
  /** The signature does not cover the body: each signed pair is bound to the first body it came with. */
  readonly #signedBodies = new SignedBodies(MAX_CLOCK_SKEW_MS);

    /** Private (`#`): the options hold the secrets, kept out of `util.inspect` and JSON. */
  readonly #options: DingTalkHttpCallbacksOptions;

  constructor(options: DingTalkHttpCallbacksOptions) {
    this.#options = options;
    this.server = new CallbackServer({
      host: options.host,
      port: options.port,
      path: options.path,
      answer: (response, status, message) => send(response, status, { message }),
      // Unverified, a page in a browser must not be able to click for someone: DingTalk posts JSON without an Origin.
      ...(options.apiSecret ? {} : { refuseCrossSite: { contentType: 'application/json', publicUrl: options.publicUrl } }),
    });
  }

  /** Set without `apiSecret`: nothing is verified, anyone who reaches the port can click. */
  get warnings(): readonly string[] {
    if (this.#options.apiSecret) return [];
    return ['HTTP card callbacks run without verification: anyone who reaches the port can click; set callbacks.apiSecret (DINGTALK_CALLBACK_API_SECRET)'];
  }

  /** The listening URL once started, e.g. `http://127.0.0.1:41234/dingtalk/card-callback`. */
  get url(): string | undefined {
    return this.server.url;
  }

  /** Listens, then registers the URL. @throws the listen error, or the register call's DingTalkApiError. */
  async start(onClick: ClickHandler): Promise<void> {
    if (this.server.started) return;
    const url = await this.server.listen((request, response) => this.serve(request, response, onClick));
    try {
      await this.#options.register(this.#options.publicUrl ?? url);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  stop(): Promise<void> {
    return this.server.close();
  }

  private async serve(request: IncomingMessage, response: ServerResponse, onClick: ClickHandler): Promise<void> {
    const raw = await readCallbackBody(request);
    if (raw === undefined) return send(response, 413, { message: 'body too large' });
    const { apiSecret } = this.#options;
    const header = (name: string) => callbackHeader(request, name);
    if (apiSecret) {
      const now = (this.#options.now ?? Date.now)();
      const timestamp = header('timestamp');
      const sign = header('sign');
      if (!verifyDingTalkSignature(timestamp, sign, apiSecret, now)) return send(response, 401, { message: 'signature mismatch or stale timestamp' });
      if (!this.#signedBodies.bind(timestamp!, sign!, raw, now)) return send(response, 401, { message: 'signature already used with another body' });
    }
    const deliveryId = createHash('sha256').update(raw).digest('hex');
    const click = clickFromCardCallback(raw, deliveryId);
    // Not one of our controls: an empty answer leaves the card as it is.
    if (!click) return send(response, 200, {});
    return send(response, 200, callbackResponse(await onClick(click), this.#options.render, this.#options.contentKey));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
