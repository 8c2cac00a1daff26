import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Update } from '@grammyjs/types';
import { CallbackServer, type ChannelInteraction, type ClickHandler, type ControlClick, callbackHeader, readCallbackBody } from '@progresscard/core/plugin';
import { TELEGRAM_METHODS, callTelegram, type TelegramEndpoint } from '../transport/routes.js';
import type { CallbackDataRegistry } from './callback-data.js';

/** Options of {@link TelegramWebhook}. */
export interface TelegramWebhookOptions {
  /** The `secret_token` given to `setWebhook`. */
  readonly secretToken: string;
  readonly host: string;
  /** 0: any free port (see {@link TelegramWebhook.url}). */
  readonly port: number;
  readonly path: string;
  /** For `answerCallbackQuery`. */
  readonly endpoint: TelegramEndpoint;
  /** Decodes the buttons' `callback_data` (shared with the renderer). */
  readonly callbackData: CallbackDataRegistry;
}

/** Constant-time comparison of the header with the secret (digests first, so lengths do not leak). */
function secretTokenMatches(secret: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(secret), digest(header));
}

/** A `callback_query` update as a click, or undefined when it is not a press on one of our buttons. */
function clickFromUpdate(update: Update, callbackData: CallbackDataRegistry): ControlClick | undefined {
  const query = update.callback_query;
  if (!query?.data) return undefined;
  const target = callbackData.decode(query.data);
  if (!target) return undefined;
  const name = [query.from.first_name, query.from.last_name].filter(Boolean).join(' ') || query.from.username;
  return { cardId: target.cardId, interactionId: target.interactionId, optionId: target.optionId, user: { id: String(query.from.id), ...(name ? { name } : {}) }, deliveryId: query.id };
}

/**
 * Telegram card buttons through the bot's webhook (https://core.telegram.org/bots/api#setwebhook):
 * refuses an update without the right `X-Telegram-Bot-Api-Secret-Token` (HTTP 401; the header is
 * the only authentication Telegram gives a webhook), answers every update 200 at once (Telegram
 * retries others), routes a `callback_query` on one of progresscard's buttons to the core, and
 * answers it with `answerCallbackQuery` carrying the core's reply as the toast ("Telegram clients
 * will display a progress bar until you call answerCallbackQuery",
 * https://core.telegram.org/bots/api#callbackquery). The card itself changes through the core's
 * normal update. A retried update (same query id) is answered from the core's memory and not
 * answered twice.
 */
export class TelegramWebhook implements ChannelInteraction {
  private readonly server: CallbackServer;
  /** Private (`#`): the options hold the bot token and the secret_token, kept out of `util.inspect` and JSON. */
  readonly #options: TelegramWebhookOptions;

  constructor(options: TelegramWebhookOptions) {
    this.#options = options;
    this.server = new CallbackServer({ host: options.host, port: options.port, path: options.path, answer: send });
  }

  /** The webhook URL once listening, e.g. `http://127.0.0.1:41234/telegram/webhook`. */
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
    if (!secretTokenMatches(this.#options.secretToken, callbackHeader(request, 'x-telegram-bot-api-secret-token'))) return send(response, 401, 'secret token mismatch');
    let update: Update;
    try {
      update = JSON.parse(raw) as Update;
    } catch {
      return send(response, 400, 'not JSON');
    }
    send(response, 200, '');
    const query = update.callback_query;
    if (!query) return;
    const click = clickFromUpdate(update, this.#options.callbackData);
    const reply = click ? await onClick(click) : undefined;
    if (reply?.repeated) return;
    await callTelegram(this.#options.endpoint, TELEGRAM_METHODS.answerCallbackQuery, {
      callback_query_id: query.id,
      ...(reply ? { text: reply.message.slice(0, 200), show_alert: reply.outcome === 'not-allowed' } : {}),
    }).catch(() => undefined);
  }
}

function send(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}
