/**
 * The Bot Connector operations the emulator serves (fault rules name them), with their REST routes
 * (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference).
 */
export const TEAMS_ROUTES = {
  /** `POST /v3/conversations/{conversationId}/activities`: a message, or a streaming activity. */
  sendToConversation: 'sendToConversation',
  /** `POST /v3/conversations/{conversationId}/activities/{activityId}`: a reply to an activity. */
  replyToActivity: 'replyToActivity',
  /** `PUT /v3/conversations/{conversationId}/activities/{activityId}`. */
  updateActivity: 'updateActivity',
  /** `DELETE /v3/conversations/{conversationId}/activities/{activityId}`. */
  deleteActivity: 'deleteActivity',
  /** `POST /{tenant}/oauth2/v2.0/token` (client credentials; Microsoft Entra ID). */
  token: 'token',
} as const;

/** One of {@link TEAMS_ROUTES}. */
export type TeamsRoute = (typeof TEAMS_ROUTES)[keyof typeof TEAMS_ROUTES];

/** Every route name, for fault rules. */
export const TEAMS_ROUTE_NAMES: readonly TeamsRoute[] = Object.values(TEAMS_ROUTES);

/** An error answer of the connector: HTTP status and `{ error: { code, message } }` (the Teams SDK reads `error.message`). */
export interface TeamsError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const error = (status: number, code: string, message: string, headers?: Record<string, string>): TeamsError => ({ status, code, message, ...(headers ? { headers } : {}) });

/**
 * The error answers, worded as the docs give them: streaming codes from the "Response codes" table of
 * https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux; the user's Stop as the Teams SDK
 * test suite spells it ("canceled"; the Python SDK has "cancelled." — UNCONFIRMED which the service
 * sends, both contain "cancel"); 413 `MessageSizeTooBig` from format-your-bot-messages; 429 from
 * bots/how-to/rate-limit (the body and a `Retry-After` header are not documented: UNCONFIRMED, sent here
 * in seconds); 401/404 codes from common field reports (UNCONFIRMED names).
 */
export const TeamsErrors = {
  unauthorized: () => error(401, 'Unauthorized', 'Authorization has been denied for this request.'),
  badRequest: (message: string) => error(400, 'BadRequest', message),
  conversationNotFound: () => error(404, 'ConversationNotFound', 'Conversation not found.'),
  activityNotFound: () => error(404, 'ActivityNotFound', 'Activity not found.'),
  tooLarge: () => error(413, 'MessageSizeTooBig', 'Message size too large.'),
  throttled: (retryAfterMs: number) => error(429, 'ThrottledTooManyRequests', 'API calls quota exceeded', { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }),
  streamNotAllowed: () => error(403, 'ContentStreamNotAllowed', 'Content stream is not allowed'),
  streamCompleted: () => error(403, 'ContentStreamNotAllowed', 'Content stream is not allowed on an already completed streamed message'),
  streamTimedOut: () => error(403, 'ContentStreamNotAllowed', 'Content stream finished due to exceeded streaming time.'),
  streamTooLarge: () => error(403, 'ContentStreamNotAllowed', 'Message size too large'),
  streamCanceled: () => error(403, 'ContentStreamNotAllowed', 'Content stream was canceled by user'),
  /** A second stream in a chat that streams already: the wording is not documented (UNCONFIRMED). */
  streamBusy: () => error(403, 'ContentStreamNotAllowed', 'Content stream is not allowed: another stream is active in this conversation'),
} as const;
