/**
 * Slack Web API answers the emulator gives. Every error is HTTP 200 `{ ok: false, error }` except
 * rate limiting, which is HTTP 429 with a `Retry-After` header in seconds
 * (https://api.slack.com/apis/rate-limits, "Responding to rate limiting conditions").
 */

/** Route names used in fault rules, call history and counts: the Web API method names. */
export const SLACK_ROUTES = {
  authTest: 'auth.test',
  postMessage: 'chat.postMessage',
  update: 'chat.update',
  startStream: 'chat.startStream',
  appendStream: 'chat.appendStream',
  stopStream: 'chat.stopStream',
  setStatus: 'assistant.threads.setStatus',
  history: 'conversations.history',
  getUploadUrl: 'files.getUploadURLExternal',
  completeUpload: 'files.completeUploadExternal',
} as const;

/** One of {@link SLACK_ROUTES}. */
export type SlackRoute = (typeof SLACK_ROUTES)[keyof typeof SLACK_ROUTES];

/** Every route name, for validating fault rules. */
export const SLACK_ROUTE_NAMES: readonly SlackRoute[] = Object.values(SLACK_ROUTES);

/** A Slack error answer: HTTP status, the `error` string, and headers. */
export interface SlackError {
  readonly status: number;
  readonly error: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** More body fields, e.g. `needed` / `provided` of `missing_scope`. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * The scope each method needs (https://docs.slack.dev/reference/methods/chat.postMessage,
 * https://docs.slack.dev/reference/methods/chat.update: `chat:write`); `auth.test` needs none.
 */
export const SLACK_ROUTE_SCOPES: Readonly<Partial<Record<SlackRoute, string>>> = {
  'chat.postMessage': 'chat:write',
  'chat.update': 'chat:write',
  // The stream methods and the thread status need `chat:write` too (https://docs.slack.dev/reference/methods/chat.startStream;
  // assistant.threads.setStatus since https://docs.slack.dev/changelog/2026/03/05/set-status-scope-update).
  'chat.startStream': 'chat:write',
  'chat.appendStream': 'chat:write',
  'chat.stopStream': 'chat:write',
  'assistant.threads.setStatus': 'chat:write',
  // https://docs.slack.dev/reference/methods/files.getUploadURLExternal, …/files.completeUploadExternal
  'files.getUploadURLExternal': 'files:write',
  'files.completeUploadExternal': 'files:write',
};

const platform = (error: string): SlackError => ({ status: 200, error });

/**
 * Documented errors of https://api.slack.com/methods/chat.postMessage and
 * https://api.slack.com/methods/chat.update (section "Errors").
 */
export const SlackErrors = {
  /** No token given. */
  notAuthed: () => platform('not_authed'),
  /** Unknown or revoked token. */
  invalidAuth: () => platform('invalid_auth'),
  /** The channel id is not known. */
  channelNotFound: () => platform('channel_not_found'),
  /** The bot is not a member of the channel. */
  notInChannel: () => platform('not_in_channel'),
  /** chat.update: no message with that `ts` (deleted, or never there). */
  messageNotFound: () => platform('message_not_found'),
  /** chat.update: the message is someone else's. */
  cantUpdateMessage: () => platform('cant_update_message'),
  /** chat.update: the workspace's message edit window has passed. */
  editWindowClosed: () => platform('edit_window_closed'),
  /** Text over 40 000 characters (chat.postMessage "Truncating content"). */
  msgTooLong: () => platform('msg_too_long'),
  /** Neither text nor blocks. */
  noText: () => platform('no_text'),
  /** Blocks that break a Block Kit rule (https://api.slack.com/reference/block-kit/blocks). */
  invalidBlocks: () => platform('invalid_blocks'),
  /** `blocks` is not a JSON array. */
  invalidBlocksFormat: () => platform('invalid_blocks_format'),
  /** An argument of the wrong shape. */
  invalidArguments: () => platform('invalid_arguments'),
  /**
   * chat.postMessage with a `thread_ts` that names no message of the channel (deleted, never
   * there, another channel's, or not a ts at all): Slack's `thread_not_found`
   * ("Value for thread_ts was missing or invalid", https://api.slack.com/methods/conversations.replies#errors).
   */
  threadNotFound: () => platform('thread_not_found'),
  /**
   * chat.appendStream / chat.stopStream on a stream that was stopped or outlived its lifetime
   * ("The message is not in the streaming state", https://docs.slack.dev/reference/methods/chat.appendStream).
   */
  messageNotInStreamingState: () => platform('message_not_in_streaming_state'),
  /** The user stopped the stream: "no further appends are accepted" (chat.appendStream errors). */
  stoppedByUser: () => platform('stopped_by_user'),
  /** Another app's stream (chat.appendStream errors). */
  messageNotOwnedByApp: () => platform('message_not_owned_by_app'),
  /** chat.startStream in a channel without `recipient_user_id` ("Required when streaming to channels"). */
  missingRecipientUserId: () => platform('missing_recipient_user_id'),
  /** chat.startStream in a channel without `recipient_team_id`. */
  missingRecipientTeamId: () => platform('missing_recipient_team_id'),
  /** A chunk of an unknown type or shape (chat.startStream errors). */
  invalidChunks: () => platform('invalid_chunks'),
  /** More than 50 blocks (chat.startStream / stopStream errors). */
  msgBlocksTooMany: () => platform('msg_blocks_too_many'),
  /** chat.update while the message streams ("The message is currently streaming text and cannot be edited"). */
  streamingStateConflict: () => platform('streaming_state_conflict'),
  /** assistant.threads.setStatus with a `thread_ts` that names no message of the channel. */
  invalidThreadTs: () => platform('invalid_thread_ts'),
  /**
   * The token lacks the method's scope: `missing_scope` with `needed` (and `provided`, the scopes it
   * has), HTTP 200 like every platform error (https://docs.slack.dev/reference/methods/chat.postMessage#errors).
   */
  missingScope: (needed: string, provided: readonly string[]): SlackError => ({ status: 200, error: 'missing_scope', fields: { needed, provided: provided.join(',') } }),
  /** files.getUploadURLExternal without `filename`, or with a `length` of 0 or none ("Typically only occurs when the `length` provided is 0"). */
  missingArgument: () => platform('missing_argument'),
  /** files.getUploadURLExternal: `length` over the workspace's upload limit. */
  fileUploadSizeRestricted: () => platform('file_upload_size_restricted'),
  /** files.completeUploadExternal: "Could not find the file from the upload ticket" (unknown id, or its bytes never arrived). */
  fileNotFound: () => platform('file_not_found'),
  /** HTTP 429 `ratelimited` with `Retry-After` seconds (https://api.slack.com/apis/rate-limits). */
  ratelimited: (retryAfterSeconds: number): SlackError => ({
    status: 429,
    error: 'ratelimited',
    headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) },
  }),
} as const;
