/**
 * Telegram Bot API answers the emulator gives: `{ ok: false, error_code, description, parameters? }`
 * with the HTTP status equal to `error_code` (https://core.telegram.org/bots/api#making-requests;
 * description texts as the official Bot API server builds them, tdlib/telegram-bot-api
 * `Client::fail_query_with_error`).
 */

/** Route names used in fault rules, call history and counts: the Bot API method names. */
export const TELEGRAM_ROUTES = {
  getMe: 'getMe',
  sendMessage: 'sendMessage',
  editMessageText: 'editMessageText',
  sendMessageDraft: 'sendMessageDraft',
  answerCallbackQuery: 'answerCallbackQuery',
  deleteMessage: 'deleteMessage',
  sendDocument: 'sendDocument',
} as const;

/** One of {@link TELEGRAM_ROUTES}. */
export type TelegramRoute = (typeof TELEGRAM_ROUTES)[keyof typeof TELEGRAM_ROUTES];

/** Every route name, for validating fault rules. */
export const TELEGRAM_ROUTE_NAMES: readonly TelegramRoute[] = Object.values(TELEGRAM_ROUTES);

/** A Bot API error answer. */
export interface TelegramError {
  readonly error_code: number;
  readonly description: string;
  readonly parameters?: { readonly retry_after?: number; readonly migrate_to_chat_id?: number };
}

const bad = (text: string): TelegramError => ({ error_code: 400, description: `Bad Request: ${text}` });

/** The errors of https://core.telegram.org/bots/api (texts of the official server where known; others as widely observed). */
export const TelegramErrors = {
  /** Unknown or revoked token (wording widely observed; UNCONFIRMED in the docs). */
  unauthorized: (): TelegramError => ({ error_code: 401, description: 'Unauthorized' }),
  /** Unknown method (wording widely observed; UNCONFIRMED in the docs). */
  notFound: (): TelegramError => ({ error_code: 404, description: 'Not Found' }),
  chatNotFound: () => bad('chat not found'),
  threadNotFound: () => bad('message thread not found'),
  messageTooLong: () => bad('message is too long'),
  textEmpty: () => bad('message text is empty'),
  cantParseEntities: (why: string) => bad(why),
  /** An edit that changes nothing (official server text). */
  notModified: () => bad('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message'),
  messageToEditNotFound: () => bad('message to edit not found'),
  messageCantBeEdited: () => bad("message can't be edited"),
  messageToDeleteNotFound: () => bad('message to delete not found'),
  buttonDataInvalid: () => bad('BUTTON_DATA_INVALID'),
  /** sendMessageDraft to a group, supergroup or channel ("live drafts can only be sent to users"). */
  draftPeerInvalid: () => bad('TEXTDRAFT_PEER_INVALID'),
  draftIdInvalid: () => bad('draft_id must be non-zero'),
  queryTooOld: () => bad('query is too old and response timeout expired or query ID is invalid'),
  /** A multipart body over the upload limit (50 MB for bots; the official server's answer, UNCONFIRMED wording). */
  entityTooLarge: (): TelegramError => ({ error_code: 413, description: 'Request Entity Too Large' }),
  /** sendDocument without an uploaded `document` (a `file_id` or URL is not emulated). */
  documentMissing: () => bad('there is no document in the request'),
  blocked: (): TelegramError => ({ error_code: 403, description: 'Forbidden: bot was blocked by the user' }),
  kicked: (): TelegramError => ({ error_code: 403, description: 'Forbidden: bot was kicked from the supergroup chat' }),
  /** HTTP 429 flood control with the seconds to wait. */
  tooManyRequests: (retryAfterSeconds: number): TelegramError => {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return { error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds } };
  },
} as const;
