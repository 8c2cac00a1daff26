import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackServer, type CardView, type ChannelInteraction, type ClickHandler, callbackHeader, readCallbackBody } from '@progresscard/core/plugin';
import type { SlackMessage } from '../render/payload.js';
import { clickFromBlockActions, responseFor } from './block-actions.js';
import { verifySlackRequest } from './signature.js';

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
  private readonly server: CallbackServer;

    /** Private (`#`): the options hold the secrets, kept out of `util.inspect` and JSON. */
  readonly #options: SlackInteractivityOptions;

  constructor(options: SlackInteractivityOptions) {
    this.#options = options;
    this.server = new CallbackServer({ host: options.host, port: options.port, path: options.path, answer: send });
  }

  /** The Request URL once listening, e.g. `http://127.0.0.1:41234/slack/interactivity`. */
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
    const raw = await readCallbackBody(request);
    if (raw === undefined) return send(response, 413, 'body too large');
    const header = (name: string) => callbackHeader(request, name);
    if (!verifySlackRequest(this.#options.signingSecret, header('x-slack-request-timestamp'), header('x-slack-signature'), raw, (this.#options.now ?? Date.now)())) {
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
    const reply = await onClick(click);
    const responseUrl = typeof payload.response_url === 'string' ? payload.response_url : undefined;
    // A retried payload changes nothing and is not answered twice.
    if (!responseUrl || reply.repeated) return;
    await fetch(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(responseFor(reply, this.#options.render)),
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
    }).catch(() => undefined);
  }
}

function send(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}
