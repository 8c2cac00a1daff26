import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardView, ChannelInteraction, ClickHandler } from '@progresscard/core';
import type { SlackMessage } from '../render/message-types.js';
import { clickFromBlockActions, responseFor } from './block-actions.js';
import { verifySlackRequest } from './signature.js';

/** Largest request body read, in bytes. */
const MAX_BODY_BYTES = 1_000_000;
/** Timeout of the `response_url` post, in ms. */
const RESPONSE_TIMEOUT_MS = 10_000;

/** Options of {@link SlackInteractivity}. */
export interface SlackInteractivityOptions {
  readonly signingSecret: string;
  readonly host: string;
  /** 0: any free port (see {@link SlackInteractivity.url}). */
  readonly port: number;
  readonly path: string;
  /** Draws the card posted to `response_url` after a click that changed it. */
  readonly render: (view: CardView) => SlackMessage;
  /** Epoch ms (default `Date.now`), for the request age check. */
  readonly now?: () => number;
}

/**
 * Slack interactivity: serves the Request URL, refuses requests whose `X-Slack-Signature` is wrong
 * or whose `X-Slack-Request-Timestamp` is more than five minutes off (HTTP 401), acknowledges each
 * `block_actions` payload with an empty 200 at once (Slack wants it within 3 s), and posts the
 * result to the payload's `response_url`: the updated card in place (who decided, the buttons
 * gone), or the reply only the clicking user sees ("already decided", a polite refusal)
 * (https://api.slack.com/interactivity/handling).
 */
export class SlackInteractivity implements ChannelInteraction {
  private server: Server | undefined;
  private address: string | undefined;

  constructor(private readonly options: SlackInteractivityOptions) {}

  /** The Request URL once listening, e.g. `http://127.0.0.1:41234/slack/interactivity`. */
  get url(): string | undefined {
    return this.address;
  }

  start(onClick: ClickHandler): Promise<void> {
    if (this.server) return Promise.resolve();
    const server = createServer((request, response) => {
      this.serve(request, response, onClick).catch(() => send(response, 500, 'internal error'));
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
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== this.options.path) return send(response, 404, 'not found');
    const raw = await readBody(request);
    if (raw === undefined) return send(response, 413, 'body too large');
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    if (!verifySlackRequest(this.options.signingSecret, header('x-slack-request-timestamp'), header('x-slack-signature'), raw, (this.options.now ?? Date.now)())) {
      return send(response, 401, 'signature mismatch or stale timestamp');
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(new URLSearchParams(raw).get('payload') ?? '') as Record<string, unknown>;
    } catch {
      return send(response, 400, 'no payload');
    }
    const click = clickFromBlockActions(payload);
    // Acknowledge first: Slack shows the user an error when no 200 comes within 3 s.
    send(response, 200, '');
    if (!click) return;
    const reply = onClick(click);
    const responseUrl = typeof payload.response_url === 'string' ? payload.response_url : undefined;
    // A retried payload changes nothing and is not answered twice.
    if (!responseUrl || reply.repeated) return;
    await fetch(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(responseFor(reply, this.options.render)),
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
    }).catch(() => undefined);
  }
}

function send(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
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
