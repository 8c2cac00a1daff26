import type { ApiMethods, ApiResponse, Opts } from '@grammyjs/types';
import { awaitLateAnswer, type LateAnswer } from '@progresscard/core/plugin';

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
  /** https://core.telegram.org/bots/api#senddocument */
  sendDocument: 'sendDocument',
  /** https://core.telegram.org/bots/api#answercallbackquery */
  answerCallbackQuery: 'answerCallbackQuery',
  /** https://core.telegram.org/bots/api#deletemessage ("Bots can delete outgoing messages in private chats, groups, and supergroups", sent less than 48 hours ago) */
  deleteMessage: 'deleteMessage',
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
 * an error. With `late`, the call still fails after `requestTimeoutMs`, but its answer is awaited
 * `late.windowMs` longer and given to `late.onAnswer` when it succeeds.
 * @throws TelegramApiError for an `ok: false` answer; TelegramRequestError when no answer came in time.
 */
export function callTelegram<M extends TelegramMethod>(endpoint: TelegramEndpoint, method: M, args: Opts<never>[M], late?: LateAnswer<TelegramResult<M>>): Promise<TelegramResult<M>> {
  const init = { headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) };
  if (!late) return request<TelegramResult<M>>(endpoint, method, init, endpoint.requestTimeoutMs);
  const pending = request<TelegramResult<M>>(endpoint, method, init, endpoint.requestTimeoutMs + late.windowMs);
  return awaitLateAnswer(pending, endpoint.requestTimeoutMs, () => new TelegramRequestError(method, 'TimeoutError'), late);
}

/**
 * Sends a file as a document (`sendDocument`, `multipart/form-data` with the file in `document`;
 * https://core.telegram.org/bots/api#sending-files): `fields` are the other arguments, objects as
 * JSON (`reply_parameters`).
 * @throws like {@link callTelegram}.
 */
export async function sendTelegramDocument(endpoint: TelegramEndpoint, fields: Record<string, string | number | object>, file: { readonly name: string; readonly bytes: Uint8Array }): Promise<TelegramResult<'sendDocument'>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  form.append('document', new Blob([file.bytes]), file.name);
  // fetch sets the multipart boundary itself.
  return request<TelegramResult<'sendDocument'>>(endpoint, TELEGRAM_METHODS.sendDocument, { body: form }, endpoint.requestTimeoutMs);
}

async function request<T>(endpoint: TelegramEndpoint, method: TelegramMethod, init: { headers?: Record<string, string>; body: string | FormData }, timeoutMs: number): Promise<T> {
  let response: Response;
  let body: ApiResponse<T>;
  try {
    response = await fetch(`${endpoint.apiRoot.replace(/\/+$/, '')}/bot${endpoint.botToken}/${method}`, {
      method: 'POST',
      ...init,
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = (await response.json()) as ApiResponse<T>;
  } catch (error) {
    const name = error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error;
    throw new TelegramRequestError(method, name);
  }
  if (body && body.ok === true) return body.result;
  const failed = (body ?? {}) as Partial<Extract<ApiResponse<T>, { ok: false }>>;
  throw new TelegramApiError(method, response.status, String(failed.description ?? `HTTP ${response.status}`), failed.parameters?.retry_after, failed.parameters?.migrate_to_chat_id);
}

/** Largest document a bot uploads: 50 MB (https://core.telegram.org/bots/api#sending-files). */
export const TELEGRAM_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
