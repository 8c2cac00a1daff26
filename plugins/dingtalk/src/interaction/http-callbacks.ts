import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core';
import type { DingTalkCardPayload } from '../render/renderer.js';
import { callbackResponse, clickFromCardCallback } from './card-callback.js';

/** Largest callback body read, in bytes. */
const MAX_BODY_BYTES = 1_000_000;
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
 * SHA-256 is the delivery id and the retry is answered from memory.
 */
export class DingTalkHttpCallbacks implements ChannelInteraction {
  private server: Server | undefined;
  private address: string | undefined;

  constructor(private readonly options: DingTalkHttpCallbacksOptions) {}

  /** Set without `apiSecret`: nothing is verified, anyone who reaches the port can click. */
  get warnings(): readonly string[] {
    if (this.options.apiSecret) return [];
    return ['HTTP card callbacks run without verification: anyone who reaches the port can click; set callbacks.apiSecret (DINGTALK_CALLBACK_API_SECRET)'];
  }

  /** The listening URL once started, e.g. `http://127.0.0.1:41234/dingtalk/card-callback`. */
  get url(): string | undefined {
    return this.address;
  }

  /** Listens, then registers the URL. @throws the listen error, or the register call's DingTalkApiError. */
  async start(onClick: ClickHandler): Promise<void> {
    if (this.server) return;
    const server = createServer((request, response) => {
      this.serve(request, response, onClick).catch(() => send(response, 500, { message: 'internal error' }));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        const { port } = server.address() as AddressInfo;
        const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
        this.address = `http://${host}:${port}${this.options.path}`;
        resolve();
      });
    });
    try {
      await this.options.register(this.options.publicUrl ?? this.address!);
    } catch (error) {
      await this.stop();
      throw error;
    }
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
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== this.options.path) return send(response, 404, { message: 'not found' });
    const raw = await readBody(request);
    if (raw === undefined) return send(response, 413, { message: 'body too large' });
    const { apiSecret } = this.options;
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    if (apiSecret && !verifyDingTalkSignature(header('timestamp'), header('sign'), apiSecret, (this.options.now ?? Date.now)())) {
      return send(response, 401, { message: 'signature mismatch or stale timestamp' });
    }
    const deliveryId = createHash('sha256').update(raw).digest('hex');
    const click = clickFromCardCallback(raw, deliveryId);
    // Not one of our controls: an empty answer leaves the card as it is.
    if (!click) return send(response, 200, {});
    return send(response, 200, callbackResponse(onClick(click), this.options.render, this.options.contentKey));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
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
