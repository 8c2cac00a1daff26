import { countingPlatformCalls, platformCallMade, readAttachmentFile, type AttachedFile, type AttachFileRequest, type CallFailure, type CardTransport, type MessageRef, type MessagesAfterRequest, type ReplyRequest, type SendRequest, type UpdateRequest } from '@progresscard/core/plugin';
import { LogLevel, WebClient } from '@slack/web-api';
import type { SlackConfig } from '../config.js';
import { SLACK_LIMITS, type SlackLimits } from '../render/limits.js';
import type { SlackMessage } from '../render/payload.js';
import { SlackLocalError, classifySlackError } from './classify.js';
import { messageProblems } from '../render/guards.js';
import { SLACK_API_ROUTES, SLACK_MAX_FILE_BYTES } from './routes.js';

/** Where a card goes: a channel id, or the configured channel when left out. */
export interface SlackTarget {
  readonly channel?: string;
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => LogLevel.ERROR, setName() {} };

/**
 * The `@slack/web-api` client of a config: pointed at `apiUrl`, with the config's timeout, no retries
 * and rate-limited calls rejected (`Retry-After` pauses are the core's).
 */
function createSlackClient(config: SlackConfig): WebClient {
  return new WebClient(config.botToken, {
    slackApiUrl: config.apiUrl.endsWith('/') ? config.apiUrl : `${config.apiUrl}/`,
    timeout: config.requestTimeoutMs,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: silentLogger,
  });
}

/**
 * Posts and updates cards with the official `@slack/web-api` client: `chat.postMessage` (a
 * continuation part as a thread reply; a card opened with `replyTo` in the triggering message's
 * thread, `thread_ts`, whatever `inThread` says: Slack replies only in threads), `chat.update`. The client retries nothing and rejects
 * rate-limited calls (`retryConfig: { retries: 0 }`, `rejectRateLimitedCalls: true`), so retries,
 * budgets and `Retry-After` pauses stay the core's.
 *
 * Slack has no idempotency key for chat.postMessage: a send the core retries after an answer that
 * never arrived can post a second message. Sends that succeeded are remembered by idempotency key,
 * so a repeated key answers the same message.
 */
export class SlackTransport implements CardTransport<SlackMessage, SlackTarget | string> {
  readonly #client: WebClient;
  readonly #config: SlackConfig;
  readonly #limits: SlackLimits;
  readonly #sent = new Map<string, MessageRef>();
  readonly #attached = new Map<string, AttachedFile>();

  constructor(config: SlackConfig, options: { client?: WebClient; limits?: SlackLimits } = {}) {
    this.#config = config;
    this.#limits = options.limits ?? SLACK_LIMITS;
    this.#client = options.client ?? createSlackClient(config);
  }

  /** The Web API client the transport calls through (shared with the stream transport). */
  get client(): WebClient {
    return this.#client;
  }

  send(request: SendRequest<SlackMessage, SlackTarget | string> & { readonly broadcast?: boolean }): Promise<MessageRef> {
    return countingPlatformCalls(request.extraCalls, () => this.#send(request));
  }

  update(request: UpdateRequest<SlackMessage>): Promise<void> {
    return countingPlatformCalls(request.extraCalls, () => this.#update(request));
  }

  async #send(request: SendRequest<SlackMessage, SlackTarget | string> & { readonly broadcast?: boolean }): Promise<MessageRef> {
    const known = this.#sent.get(request.idempotencyKey);
    if (known) return known;
    this.#guard(request.payload);
    const target = typeof request.target === 'string' ? { channel: request.target } : (request.target ?? {});
    const replyChannel = request.replyTo?.extra?.channel;
    const channel = typeof replyChannel === 'string' ? replyChannel : (target.channel ?? this.#config.channel);
    // A continuation part goes into its card's thread; a card opened with `replyTo` into the triggering message's.
    const threadTs = request.replyTo?.id ?? request.replyToMessage?.messageId;
    const post = (thread: string | undefined) => this.#inChannel(channel, () => SLACK_API_ROUTES.postMessage.call(this.#client, {
      channel,
      text: request.payload.text,
      ...(request.payload.blocks ? { blocks: [...request.payload.blocks] } : {}),
      ...(thread ? { thread_ts: thread } : {}),
      ...(thread && request.broadcast ? { reply_broadcast: true } : {}),
      unfurl_links: false,
      unfurl_media: false,
    } as Parameters<typeof SLACK_API_ROUTES.postMessage.call>[1]));
    let answer: Awaited<ReturnType<typeof post>>;
    try {
      answer = await post(threadTs);
    } catch (error) {
      // The triggering message is gone (deleted, or a stale or wrong ts): Slack refuses the reply
      // every time, so the card goes into the channel instead, as Feishu does for a recalled message.
      if (request.replyTo || !threadTs || !isThreadGone(error)) throw error;
      answer = await post(undefined);
    }
    if (!answer.ts) throw new SlackLocalError('chat.postMessage answered without ts');
    const ref: MessageRef = { id: answer.ts, extra: { channel: answer.channel ?? channel } };
    this.#sent.set(request.idempotencyKey, ref);
    if (this.#sent.size > 10_000) this.#sent.delete(this.#sent.keys().next().value as string);
    return ref;
  }

  /** Replaces the message's text and blocks (the plain-text fallback clears the blocks). */
  async #update(request: UpdateRequest<SlackMessage>): Promise<void> {
    this.#guard(request.payload);
    const known = request.message.extra?.channel;
    const channel = typeof known === 'string' ? known : this.#config.channel;
    await this.#inChannel(channel, () => SLACK_API_ROUTES.update.call(this.#client, {
      channel,
      ts: request.message.id,
      text: request.payload.text,
      blocks: [...(request.payload.blocks ?? [])],
    } as Parameters<typeof SLACK_API_ROUTES.update.call>[1]));
  }

  /**
   * The completion ping: a plain message in the card's thread (`chat.postMessage` with `thread_ts`),
   * mentioning the requester as `<@USER_ID>`, which notifies them
   * (https://api.slack.com/reference/surfaces/formatting#mentioning-users). Sent once per key.
   */
  async reply(request: ReplyRequest<SlackTarget | string>): Promise<MessageRef> {
    const mention = request.mention ? `<@${request.mention.id.replace(/[<>|]/g, '')}> ` : '';
    return this.send({ target: request.target, payload: { text: `${mention}${request.text}` }, idempotencyKey: request.idempotencyKey, replacing: false, replyTo: request.message, broadcast: request.broadcast });
  }

  /**
   * Top-level messages in the card's channel after the card (`conversations.history` with
   * `oldest` = the card's ts, exclusive; https://api.slack.com/methods/conversations.history, scope
   * `channels:history` / `groups:history`). Thread replies (the card's continuation parts) are not
   * in it. A card posted inside a thread is counted against the channel, not the thread.
   */
  async messagesAfter(request: MessagesAfterRequest<SlackTarget | string>): Promise<number> {
    const extra = request.message.extra?.channel;
    const target = typeof request.target === 'string' ? { channel: request.target } : (request.target ?? {});
    const channel = typeof extra === 'string' ? extra : (target.channel ?? this.#config.channel);
    const answer = await this.#inChannel(channel, () =>
      SLACK_API_ROUTES.history.call(this.#client, { channel, oldest: request.message.id, inclusive: false, limit: Math.max(1, Math.min(request.atMost, 999)) }),
    );
    return Math.min(request.atMost, answer.messages?.length ?? 0);
  }

  /**
   * Uploads a file the agent produced into the card's thread (a reply to the card), or into the
   * card's channel before the card is sent, with the SDK's `files.uploadV2` (files.getUploadURLExternal,
   * the bytes to its `upload_url`, files.completeUploadExternal with `channel_id` and `thread_ts`;
   * scope `files:write`). Read only inside `fileRoots`, at most 100 MB. Answers the file's
   * permalink, which the card links. Slack has no idempotency key for uploads: a file uploaded
   * once per key is answered again from memory.
   * @throws Error naming why (no roots, outside them, empty, over 100 MB) or Slack's refusal.
   */
  async attachFile(request: AttachFileRequest<SlackTarget | string>): Promise<AttachedFile> {
    const known = this.#attached.get(request.idempotencyKey);
    if (known) return known;
    if (this.#config.fileRoots.length === 0) throw new SlackLocalError('no folder is allowed for uploads (fileRoots not set)');
    const bytes = await readAttachmentFile(request.path, { maxBytes: SLACK_MAX_FILE_BYTES, roots: this.#config.fileRoots });
    const replyChannel = request.message?.extra?.channel;
    const target = typeof request.target === 'string' ? { channel: request.target } : (request.target ?? {});
    const channel = typeof replyChannel === 'string' ? replyChannel : (target.channel ?? this.#config.channel);
    const answer = await this.#inChannel(channel, () =>
      SLACK_API_ROUTES.uploadFile.call(this.#client, {
        channel_id: channel,
        ...(request.message ? { thread_ts: request.message.id } : {}),
        file: bytes,
        filename: request.name,
        title: request.name,
      } as Parameters<typeof SLACK_API_ROUTES.uploadFile.call>[1]),
    );
    const permalink = (answer.files?.[0] as { files?: { permalink?: unknown }[] } | undefined)?.files?.[0]?.permalink;
    const attached: AttachedFile = typeof permalink === 'string' ? { url: permalink } : {};
    this.#attached.set(request.idempotencyKey, attached);
    if (this.#attached.size > 10_000) this.#attached.delete(this.#attached.keys().next().value as string);
    return attached;
  }

  classify(error: unknown): CallFailure {
    return classifySlackError(error, typeof error === 'object' && error !== null ? this.#channelOf.get(error) : undefined);
  }

  /** The channel each failed call went to, so a `target` failure can name it. */
  readonly #channelOf = new WeakMap<object, string>();

  async #inChannel<T>(channel: string, call: () => Promise<T>): Promise<T> {
    platformCallMade();
    try {
      return await call();
    } catch (error) {
      if (typeof error === 'object' && error !== null) this.#channelOf.set(error, channel);
      throw error;
    }
  }

  #guard(message: SlackMessage): void {
    const problems = messageProblems(message, this.#limits);
    if (problems.length > 0) throw new SlackLocalError(`message not sent, Slack would refuse it: ${problems.join('; ')}`);
  }
}

/**
 * `chat.postMessage`'s answers to a `thread_ts` it cannot reply to: `cannot_reply_to_message`
 * (its documented error, https://docs.slack.dev/reference/methods/chat.postMessage#errors). Its table
 * lists no error for a `thread_ts` naming no message; `thread_not_found` (documented for
 * conversations.replies) and `invalid_thread_ts` (older method tables) are what clients have seen
 * for a deleted parent, so they count too (UNCONFIRMED for chat.postMessage).
 */
const THREAD_GONE_ERRORS: ReadonlySet<string> = new Set(['cannot_reply_to_message', 'thread_not_found', 'invalid_thread_ts']);

function isThreadGone(error: unknown): boolean {
  const name = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof name === 'string' && THREAD_GONE_ERRORS.has(name);
}
