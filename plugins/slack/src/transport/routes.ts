import type { FilesUploadV2Arguments, AssistantThreadsSetStatusArguments, ChatAppendStreamArguments, ChatPostMessageArguments, ChatStartStreamArguments, ChatStopStreamArguments, ChatUpdateArguments, ConversationsHistoryArguments, ConversationsRepliesArguments, ChatDeleteArguments, WebClient } from '@slack/web-api';

/** What a chat call resolves to (the SDK throws for `ok: false`). */
interface SlackAnswer {
  readonly ok?: boolean;
  readonly ts?: string;
  readonly channel?: string;
  /** auth.test's workspace id. */
  readonly team_id?: string;
  /** `conversations.history` / `conversations.replies`: the messages found. */
  readonly messages?: readonly unknown[];
  /** `conversations.history` / `conversations.replies`: more messages follow, from `response_metadata.next_cursor`. */
  readonly has_more?: boolean;
  readonly response_metadata?: { readonly next_cursor?: string };
  /** `files.uploadV2`: one files.completeUploadExternal answer per channel, each with the files it shared. */
  readonly files?: readonly unknown[];
}

/** One Web API method the transport calls, through the SDK. */
export interface SlackRoute<Request> {
  /** The Web API method, also the emulator's route name. */
  readonly method: string;
  /** The platform doc of the method. */
  readonly doc: string;
  /** Rate-limit tier as documented. */
  readonly tier: string;
  call(client: WebClient, request: Request): Promise<SlackAnswer>;
}

function route<Request>(entry: SlackRoute<Request>): SlackRoute<Request> {
  return entry;
}

/** The Slack Web API methods the plugin uses. */
export const SLACK_API_ROUTES = {
  /** Posts a card; a continuation part is posted as a thread reply (`thread_ts` = the card's message). */
  postMessage: route<ChatPostMessageArguments>({
    method: 'chat.postMessage',
    doc: 'https://api.slack.com/methods/chat.postMessage',
    tier: 'Special: about 1 message per second per channel, short bursts allowed',
    call: (client, r) => client.chat.postMessage(r),
  }),
  /** Replaces a posted card's text and blocks. */
  update: route<ChatUpdateArguments>({
    method: 'chat.update',
    doc: 'https://api.slack.com/methods/chat.update',
    tier: 'Tier 3: 50+ per minute',
    call: (client, r) => client.chat.update(r),
  }),
  /** Opens a native stream as a thread reply. */
  startStream: route<ChatStartStreamArguments>({
    method: 'chat.startStream',
    doc: 'https://docs.slack.dev/reference/methods/chat.startStream',
    tier: 'Tier 2: 20+ per minute',
    call: (client, r) => client.chat.startStream(r),
  }),
  /** Appends text and chunks to an open stream. */
  appendStream: route<ChatAppendStreamArguments>({
    method: 'chat.appendStream',
    doc: 'https://docs.slack.dev/reference/methods/chat.appendStream',
    tier: 'Tier 4: 100+ per minute',
    call: (client, r) => client.chat.appendStream(r),
  }),
  /** Closes a stream, with blocks below its text. */
  stopStream: route<ChatStopStreamArguments>({
    method: 'chat.stopStream',
    doc: 'https://docs.slack.dev/reference/methods/chat.stopStream',
    tier: 'Tier 2: 20+ per minute',
    call: (client, r) => client.chat.stopStream(r),
  }),
  /** Shows (or clears) the thread's "is working…" status. */
  setStatus: route<AssistantThreadsSetStatusArguments>({
    method: 'assistant.threads.setStatus',
    doc: 'https://docs.slack.dev/reference/methods/assistant.threads.setStatus',
    tier: 'Special',
    call: (client, r) => client.assistant.threads.setStatus(r),
  }),
  /** Names the workspace (`team_id`) for `recipient_team_id`. */
  authTest: route<Record<string, never>>({
    method: 'auth.test',
    doc: 'https://docs.slack.dev/reference/methods/auth.test',
    tier: 'Special',
    call: (client) => client.auth.test(),
  }),
  /** Counts the messages after a card (the completion ping's "pushed up" check). */
  history: route<ConversationsHistoryArguments>({
    method: 'conversations.history',
    doc: 'https://api.slack.com/methods/conversations.history',
    tier: 'Tier 3: 50+ per minute',
    call: (client, r) => client.conversations.history(r),
  }),
  /** Deletes a card Slack no longer lets the app edit, once a fresh card replaced it. */
  delete: route<ChatDeleteArguments>({
    method: 'chat.delete',
    doc: 'https://docs.slack.dev/reference/methods/chat.delete',
    tier: 'Tier 3: 50+ per minute',
    call: (client, r) => client.chat.delete(r),
  }),
  /** Finds a thread reply whose post timed out (reconciling a send before its retry). */
  replies: route<ConversationsRepliesArguments>({
    method: 'conversations.replies',
    doc: 'https://docs.slack.dev/reference/methods/conversations.replies',
    tier: 'Tier 3: 50+ per minute',
    call: (client, r) => client.conversations.replies(r),
  }),
  /**
   * Uploads a file and shares it into a channel or thread with the SDK's `files.uploadV2`, which
   * makes Slack's three calls: files.getUploadURLExternal (`filename`, `length`), a POST of the bytes
   * to the `upload_url` it answered, files.completeUploadExternal (`files`, `channel_id`, `thread_ts`).
   */
  uploadFile: route<FilesUploadV2Arguments>({
    method: 'files.uploadV2',
    doc: 'https://docs.slack.dev/reference/methods/files.getUploadURLExternal',
    tier: 'Tier 4: 100+ per minute (both methods)',
    call: (client, r) => client.files.uploadV2(r),
  }),
} as const;

/**
 * Largest file the plugin uploads, in bytes: 100 MB. Slack's help centre allows 1 GB per file
 * (https://slack.com/help/articles/201330736-Add-files-to-Slack); the plugin holds the file in
 * memory while it uploads, so it stops well below that.
 */
export const SLACK_MAX_FILE_BYTES = 100 * 1024 * 1024;
