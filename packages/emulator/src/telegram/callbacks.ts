import { randomBytes } from 'node:crypto';
import type { CallHistory } from '../common/history.js';
import type { TelegramStore } from './chats.js';
import type { TelegramLimits } from './limits.js';

/** The bot's webhook (`setWebhook { url, secret_token }`, https://core.telegram.org/bots/api#setwebhook). */
export interface TelegramWebhookConfig {
  readonly url: string;
  /** Sent in `X-Telegram-Bot-Api-Secret-Token` on every update; absent: no header. */
  readonly secretToken?: string;
}

/** A press on an inline button of a message, as a user would make it. */
export interface TelegramClick {
  readonly chatId: number;
  readonly messageId: number;
  /** The button's text or its `callback_data`. */
  readonly button: string;
  /** The pressing user's id. */
  /** A user id; Telegram's are numbers (a string is passed through as given, for suites that name users). */
  readonly userId: number | string;
  readonly userName?: string;
  /** Send this secret token instead of the configured one (a forged update). */
  readonly secretToken?: string;
  /** How long to wait for `answerCallbackQuery`, in ms (default 2000; 0: do not wait). */
  readonly awaitAnswerMs?: number;
}

/**
 * What came of a press. `error`: `webhook-not-set`, `no-such-button`, `http-error` (a non-2xx answer
 * to the update), `timeout`. `answer`: the `answerCallbackQuery` arguments the bot sent, if it did.
 */
export interface TelegramClickResult {
  readonly callbackQueryId?: string;
  readonly status?: number;
  readonly answer?: Record<string, unknown>;
  readonly error?: 'webhook-not-set' | 'no-such-button' | 'http-error' | 'timeout';
}

/** Route name of delivered callback updates in the call history. */
export const TELEGRAM_CALLBACK_ROUTE = 'webhook.callback_query';

/**
 * Inline keyboard presses of the emulator: a press becomes an `Update` with a `callback_query`
 * (https://core.telegram.org/bots/api#callbackquery) POSTed as JSON to the webhook with
 * `X-Telegram-Bot-Api-Secret-Token`; the bot must answer it with `answerCallbackQuery` within
 * `limits.callbackAnswerMs` (a later or second answer is "query is too old…").
 */
export class TelegramCallbacks {
  private config: TelegramWebhookConfig | undefined;
  private updateId = 1000;
  private readonly open = new Map<string, { at: number; answered?: Record<string, unknown>; done?: () => void }>();

  constructor(
    private readonly store: TelegramStore,
    private readonly history: CallHistory,
    private readonly clock: () => number,
    private readonly limits: TelegramLimits,
  ) {}

  configure(config: TelegramWebhookConfig | undefined): void {
    this.config = config;
  }

  /** answerCallbackQuery: true when the query is open and unanswered. */
  answer(args: Record<string, unknown>): boolean {
    const query = this.open.get(String(args.callback_query_id));
    if (!query || query.answered || this.clock() - query.at > this.limits.callbackAnswerMs) return false;
    query.answered = { ...args };
    query.done?.();
    return true;
  }

  async click(click: TelegramClick): Promise<TelegramClickResult> {
    const message = this.store.require(click.chatId, click.messageId);
    const rows = ((message.replyMarkup as { inline_keyboard?: unknown[][] } | undefined)?.inline_keyboard ?? []) as Record<string, unknown>[][];
    const button = rows.flat().find((b) => b.text === click.button || b.callback_data === click.button);
    if (!button || typeof button.callback_data !== 'string') return { error: 'no-such-button' };
    if (!this.config) return { error: 'webhook-not-set' };
    const id = randomBytes(8).toString('hex');
    const update = {
      update_id: ++this.updateId,
      callback_query: {
        id,
        from: { id: click.userId, is_bot: false, first_name: click.userName ?? `user${click.userId}`, ...(click.userName ? { username: click.userName } : {}) },
        message: { message_id: message.messageId, date: Math.floor(message.createdAt / 1000), chat: { id: message.chatId, type: message.chatId > 0 ? 'private' : 'supergroup' }, text: message.text },
        chat_instance: String(message.chatId),
        data: button.callback_data,
      },
    };
    const query: { at: number; answered?: Record<string, unknown>; done?: () => void } = { at: this.clock() };
    this.open.set(id, query);
    const answered = new Promise<void>((resolve) => {
      const wait = click.awaitAnswerMs ?? 2000;
      if (wait <= 0) return resolve();
      const timer = setTimeout(resolve, wait);
      query.done = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const secret = click.secretToken ?? this.config.secretToken;
    const key = `${message.chatId}:${message.messageId}`;
    let status = 0;
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      this.history.record({ route: TELEGRAM_CALLBACK_ROUTE, key, outcome: 'rejected', status: 0, code: 0, msg: `callback_query ${id}` });
      return { callbackQueryId: id, error: 'timeout' };
    }
    this.history.record({ route: TELEGRAM_CALLBACK_ROUTE, key, outcome: status >= 200 && status < 300 ? 'accepted' : 'rejected', status, code: 0, msg: `callback_query ${id}` });
    if (status < 200 || status >= 300) return { callbackQueryId: id, status, error: 'http-error' };
    await answered;
    return { callbackQueryId: id, status, ...(query.answered ? { answer: query.answered } : {}) };
  }
}
