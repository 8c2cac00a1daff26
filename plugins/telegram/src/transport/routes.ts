import type { ApiMethods, ApiResponse, Opts } from '@grammyjs/types';

/** The Bot API methods the plugin calls, each with its documentation. Types are `@grammyjs/types`'s (Bot API 10.3). */
export const TELEGRAM_METHODS = {
  /** https://core.telegram.org/bots/api#getme */
  getMe: 'getMe',
  /** https://core.telegram.org/bots/api#sendmessage */
  sendMessage: 'sendMessage',
  /** https://core.telegram.org/bots/api#editmessagetext */
  editMessageText: 'editMessageText',
  /** https://core.telegram.org/bots/api#sendmessagedraft (Bot API 9.3; every bot since 9.5) */
  sendMessageDraft: 'sendMessageDraft',
  /** https://core.telegram.org/bots/api#answercallbackquery */
  answerCallbackQuery: 'answerCallbackQuery',
} as const satisfies Record<string, keyof ApiMethods<never>>;

/** One of {@link TELEGRAM_METHODS}. */
export type TelegramMethod = (typeof TELEGRAM_METHODS)[keyof typeof TELEGRAM_METHODS];

/** What a method returns. */
export type TelegramResult<M extends TelegramMethod> = ReturnType<ApiMethods<never>[M]>;

/** A Bot API error answer (`ok: false`), thrown by {@link callTelegram}. */
export class TelegramApiError extends Error {
  override readonly name = 'TelegramApiError';
  constructor(
    readonly method: TelegramMethod,
    /** HTTP status (equals `error_code`). */
    readonly status: number,
    readonly description: string,
    /** `parameters.retry_after`, seconds. */
    readonly retryAfter?: number,
    readonly migrateToChatId?: number,
  ) {
    super(`telegram ${method}: ${status} ${description}`);
  }
}

/** The request never got a Bot API answer (network error, timeout, not JSON). */
export class TelegramRequestError extends Error {
  override readonly name = 'TelegramRequestError';
  constructor(
    readonly method: TelegramMethod,
    readonly reason: string,
  ) {
    super(`telegram ${method}: request failed (${reason})`);
  }
}

/** Where and how to call the Bot API. */
export interface TelegramEndpoint {
  /** `https://api.telegram.org` or an emulator's root; methods are `${apiRoot}/bot<token>/<method>`. */
  readonly apiRoot: string;
  readonly botToken: string;
  /** Abort a call after this long, ms. */
  readonly requestTimeoutMs: number;
}

/**
 * Calls one Bot API method with a JSON body (https://core.telegram.org/bots/api#making-requests)
 * over Node's built-in `fetch`; no retries (the core's). The token is in the URL only, never in
 * an error.
 * @throws TelegramApiError for an `ok: false` answer; TelegramRequestError when no answer came.
 */
export async function callTelegram<M extends TelegramMethod>(endpoint: TelegramEndpoint, method: M, args: Opts<never>[M]): Promise<TelegramResult<M>> {
  let response: Response;
  let body: ApiResponse<TelegramResult<M>>;
  try {
    response = await fetch(`${endpoint.apiRoot.replace(/\/+$/, '')}/bot${endpoint.botToken}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(endpoint.requestTimeoutMs),
    });
    body = (await response.json()) as ApiResponse<TelegramResult<M>>;
  } catch (error) {
    const name = error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error;
    throw new TelegramRequestError(method, name);
  }
  if (body && body.ok === true) return body.result;
  const failed = (body ?? {}) as Partial<Extract<typeof body, { ok: false }>>;
  throw new TelegramApiError(method, response.status, String(failed.description ?? `HTTP ${response.status}`), failed.parameters?.retry_after, failed.parameters?.migrate_to_chat_id);
}
