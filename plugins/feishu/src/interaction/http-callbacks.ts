import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core';
import type { FeishuCard } from '../render/card-types.js';
import { callbackResponse, clickFromCardAction } from './card-action.js';
import { decryptLarkBody, verifyLarkSignature } from './signature.js';

/** Oldest signed callback taken: a request whose `X-Lark-Request-Timestamp` is further off (seconds) is a replay. */
const MAX_REQUEST_AGE_MS = 5 * 60_000;

/** Largest callback body read, in bytes. */
const MAX_BODY_BYTES = 1_000_000;

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
  private server: Server | undefined;
  private address: string | undefined;

  constructor(private readonly options: FeishuHttpCallbacksOptions) {}

  /** Set when neither `verificationToken` nor `encryptKey` is: anyone who reaches the port can click. */
  get warnings(): readonly string[] {
    if (this.options.verificationToken || this.options.encryptKey) return [];
    return [
      'HTTP card callbacks run without verification: anyone who reaches the port can click; set callbacks.verificationToken / callbacks.encryptKey (FEISHU_CALLBACK_VERIFICATION_TOKEN / FEISHU_CALLBACK_ENCRYPT_KEY)',
    ];
  }

  /** The callback URL once listening, e.g. `http://127.0.0.1:41234/feishu/card-callback`. */
  get url(): string | undefined {
    return this.address;
  }

  start(onClick: ClickHandler): Promise<void> {
    if (this.server) return Promise.resolve();
    const server = createServer((request, response) => {
      // A failing request is answered 500 and never takes the process (or other clicks) down.
      this.serve(request, response, onClick).catch(() => {
        if (response.headersSent) return response.end();
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ msg: 'internal error' }));
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        const { port } = server.address() as AddressInfo;
        const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
        this.address = `http://${host}:${port}${this.options.path}`;
        resolve();
      });
    });
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(request: IncomingMessage, response: ServerResponse, onClick: ClickHandler): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== this.options.path) return send(404, { msg: 'not found' });
    const raw = await readBody(request);
    if (raw === undefined) return send(413, { msg: 'body too large' });
    const { encryptKey, verificationToken } = this.options;
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    // Checked on the raw body before anything else (a forged body must not even be decrypted).
    const timestamp = header('x-lark-request-timestamp');
    const signed =
      !encryptKey || (verifyLarkSignature(header('x-lark-signature'), timestamp, header('x-lark-request-nonce'), encryptKey, raw) && this.recent(timestamp));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
      if (encryptKey && typeof body.encrypt === 'string') body = JSON.parse(decryptLarkBody(body.encrypt, encryptKey)) as Record<string, unknown>;
    } catch {
      return signed ? send(400, { msg: 'body is not JSON (or does not decrypt with the encrypt key)' }) : send(401, { msg: 'signature mismatch' });
    }
    if (body.type === 'url_verification') {
      if (verificationToken && body.token !== verificationToken) return send(401, { msg: 'verification token mismatch' });
      return send(200, { challenge: body.challenge });
    }
    if (!signed) return send(401, { msg: 'signature mismatch' });
    const token = (body.header as Record<string, unknown> | undefined)?.token;
    if (verificationToken && token !== verificationToken) return send(401, { msg: 'verification token mismatch' });
    const click = clickFromCardAction(body);
    // Not one of our controls (or another callback type): an empty answer leaves the card as it is.
    if (!click) return send(200, {});
    return send(200, callbackResponse(onClick(click), this.options.render));
  }

  /** False when a signed request's timestamp (seconds) is more than {@link MAX_REQUEST_AGE_MS} off: a replay. */
  private recent(timestamp: string | undefined): boolean {
    if (timestamp === undefined || !/^\d+$/.test(timestamp)) return true;
    return Math.abs((this.options.now ?? Date.now)() - Number(timestamp) * 1000) <= MAX_REQUEST_AGE_MS;
  }
}

/** The request body as text, or undefined when it is larger than {@link MAX_BODY_BYTES}. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
