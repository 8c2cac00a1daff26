import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackServer, type CardView, type ChannelInteraction, type ClickHandler, callbackHeader, readCallbackBody } from '@progresscard/core/plugin';
import type { FeishuCard } from '../render/payload.js';
import { callbackResponse, clickFromCardAction } from './card-action.js';
import { decryptLarkBody, verifyLarkSignature } from './signature.js';

/** Oldest signed callback taken: a request whose `X-Lark-Request-Timestamp` is further off (seconds) is a replay. */
const MAX_REQUEST_AGE_MS = 5 * 60_000;

/** Options of {@link FeishuHttpCallbacks}. */
export interface FeishuHttpCallbacksOptions {
  readonly host: string;
  /** 0: any free port (see {@link FeishuHttpCallbacks.url}). */
  readonly port: number;
  readonly path: string;
  readonly verificationToken?: string;
  readonly encryptKey?: string;
  /** Epoch ms now (default `Date.now`), for the age of a signed request's timestamp. */
  readonly now?: () => number;
  /** Draws the card of a callback response. */
  readonly render: (view: CardView) => FeishuCard;
}

/**
 * Card callbacks over HTTP: serves the callback request URL, answers the `url_verification`
 * challenge, refuses requests whose signature or verification token is wrong, or whose signed
 * `X-Lark-Request-Timestamp` is more than 5 minutes off (a replay; HTTP 401), maps
 * `card.action.trigger` to clicks and answers each with a toast and the updated card.
 */
export class FeishuHttpCallbacks implements ChannelInteraction {
  private readonly server: CallbackServer;

    /** Private (`#`): the options hold the secrets, kept out of `util.inspect` and JSON. */
  readonly #options: FeishuHttpCallbacksOptions;

  constructor(options: FeishuHttpCallbacksOptions) {
    this.#options = options;
    const verified = Boolean(options.verificationToken || options.encryptKey);
    this.server = new CallbackServer({
      host: options.host,
      port: options.port,
      path: options.path,
      answer: (response, status, msg) => send(response, status, { msg }),
      // Unverified, a page in a browser must not be able to click for someone: Feishu posts JSON without an Origin.
      ...(verified ? {} : { refuseCrossSite: { contentType: 'application/json' } }),
    });
  }

  /** Set when neither `verificationToken` nor `encryptKey` is: anyone who reaches the port can click. */
  get warnings(): readonly string[] {
    if (this.#options.verificationToken || this.#options.encryptKey) return [];
    return [
      'HTTP card callbacks run without verification: anyone who reaches the port can click; set callbacks.verificationToken / callbacks.encryptKey (FEISHU_CALLBACK_VERIFICATION_TOKEN / FEISHU_CALLBACK_ENCRYPT_KEY)',
    ];
  }

  /** The callback URL once listening, e.g. `http://127.0.0.1:41234/feishu/card-callback`. */
  get url(): string | undefined {
    return this.server.url;
  }

  /** Listens. @throws the listen error (e.g. `EADDRINUSE`). */
  async start(onClick: ClickHandler): Promise<void> {
    await this.server.listen((request, response) => this.serve(request, response, onClick));
  }

  stop(): Promise<void> {
    return this.server.close();
  }

  private async serve(request: IncomingMessage, response: ServerResponse, onClick: ClickHandler): Promise<void> {
    const reply = (status: number, body: unknown) => send(response, status, body);
    const raw = await readCallbackBody(request);
    if (raw === undefined) return reply(413, { msg: 'body too large' });
    const { encryptKey, verificationToken } = this.#options;
    const header = (name: string) => callbackHeader(request, name);
    // Checked on the raw body before anything else (a forged body must not even be decrypted).
    const timestamp = header('x-lark-request-timestamp');
    const signed =
      !encryptKey || (verifyLarkSignature(header('x-lark-signature'), timestamp, header('x-lark-request-nonce'), encryptKey, raw) && this.recent(timestamp));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
      if (encryptKey && typeof body.encrypt === 'string') body = JSON.parse(decryptLarkBody(body.encrypt, encryptKey)) as Record<string, unknown>;
    } catch {
      return signed ? reply(400, { msg: 'body is not JSON (or does not decrypt with the encrypt key)' }) : reply(401, { msg: 'signature mismatch' });
    }
    if (body.type === 'url_verification') {
      if (verificationToken && body.token !== verificationToken) return reply(401, { msg: 'verification token mismatch' });
      return reply(200, { challenge: body.challenge });
    }
    if (!signed) return reply(401, { msg: 'signature mismatch' });
    const token = (body.header as Record<string, unknown> | undefined)?.token;
    if (verificationToken && token !== verificationToken) return reply(401, { msg: 'verification token mismatch' });
    const click = clickFromCardAction(body);
    // Not one of our controls (or another callback type): an empty answer leaves the card as it is.
    if (!click) return reply(200, {});
    return reply(200, callbackResponse(await onClick(click), this.#options.render));
  }

  /**
   * False when a signed request's timestamp (epoch seconds) is more than {@link MAX_REQUEST_AGE_MS}
   * off (a replay), or is missing, empty or not a number: the signature covers timestamp + nonce as
   * one string, so an old request re-sent with an empty timestamp and the old one moved into the
   * nonce still matches, and only the parsed timestamp tells its age.
   */
  private recent(timestamp: string | undefined): boolean {
    if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
    return Math.abs((this.#options.now ?? Date.now)() - Number(timestamp) * 1000) <= MAX_REQUEST_AGE_MS;
  }
}

/** Answers JSON; after the headers went out (a failure mid-answer) it only ends the response. */
function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
