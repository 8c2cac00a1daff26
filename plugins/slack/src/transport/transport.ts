import { countingPlatformCalls, platformCallMade, readAttachmentFile, type AttachedFile, type AttachFileRequest, type CallFailure, type CardTransport, type MessageRef, type MessagesAfterRequest, type ReplyRequest, type SendRequest, type UpdateRequest } from '@progresscard/core/plugin';
import { LogLevel, WebClient } from '@slack/web-api';
import type { SlackConfig } from '../config.js';
import { SLACK_LIMITS, type SlackLimits } from '../render/limits.js';
import type { SlackMessage } from '../render/payload.js';
import { SlackLocalError, classifySlackError, ownLimit } from './classify.js';
import { messageProblems } from '../render/guards.js';
import { SLACK_API_ROUTES, SLACK_MAX_FILE_BYTES } from './routes.js';

/** The `event_type` of the metadata every post carries (with its idempotency key as `event_payload.idempotency_key`). */
const METADATA_EVENT_TYPE = 'progresscard_message';

/** Seconds subtracted from the local clock where a reconciling lookup starts (clock skew against Slack's). */
const RECONCILE_SKEW_S = 120;

/**
 * When, after a card's message was settled (posted by a retry, or adopted) while an earlier post
 * under its idempotency key went unanswered, the channel is looked at again for late copies (ms
 * after the message was settled). Slack may apply a timed-out `chat.postMessage` after the lookup
 * that found nothing: the harsher runs saw applies 12-30 s after a timeout. The last look
 * comes after the core's default late-apply window (`RetrySettings.lateApplyWindowMs`, 10 s) with
 * room to spare, and one more follows the window a send names when it is longer
 * ({@link sweepDelaysFor}); how late Slack itself may apply a post is not documented (UNCONFIRMED).
 */
const SLACK_ORPHAN_SWEEP_DELAYS_MS: readonly number[] = [2_000, 6_000, 15_000, 35_000];

/** Messages one `conversations.history` / `.replies` page of a reconciling lookup asks for (Slack's recommended maximum is 200). */
const LOOKUP_PAGE_SIZE = 200;

/**
 * Pages one reconciling lookup reads at most (2,000 messages since the unanswered post). A channel
 * busier than that within the lookup's window is left partly unread, with a warning.
 */
const LOOKUP_MAX_PAGES = 10;

/**
 * What a copy of a card's message that cannot be deleted is edited to (`chat.update`), so it does
 * not stay "running" next to the card's message.
 */
const DUPLICATE_NOTICE = 'Duplicate of this card: it continues in its other message in this conversation.';

/** Ms after the end of a send's late-apply window the last look for its late copies is made. */
const SWEEP_AFTER_WINDOW_MS = 5_000;

/** The looks for late copies of a send: `ladder`, and one after `lateApplyWindowMs` when the ladder ends before it. */
function sweepDelaysFor(ladder: readonly number[], lateApplyWindowMs: number | undefined): readonly number[] {
  const last = ladder.at(-1) ?? 0;
  if (lateApplyWindowMs === undefined || lateApplyWindowMs + SWEEP_AFTER_WINDOW_MS <= last) return ladder;
  return [...ladder, lateApplyWindowMs + SWEEP_AFTER_WINDOW_MS];
}

/**
 * Posts of one idempotency key that failed without a clear answer: where they went, since when
 * (Slack ts seconds) to look for them, and how many went unanswered (each may still be applied).
 */
interface UncertainPost {
  readonly channel: string;
  readonly threadTs: string | undefined;
  readonly postedAfter: number;
  readonly posts: number;
}

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
 * Slack has no idempotency key for chat.postMessage, so every post carries the core's idempotency
 * key in its message `metadata` (https://docs.slack.dev/messaging/message-metadata). A post that
 * failed without a clear answer (a timeout, a 5xx: Slack may have applied it) is reconciled before
 * its retry: the channel's history (`conversations.history`, or `conversations.replies` in a
 * thread, with `include_all_metadata`) is searched for a message carrying that key, which is
 * adopted instead of posting a second one (one message per key: other copies found are deleted).
 * Sends that succeeded are remembered by idempotency key, so a repeated key answers the same
 * message. A post Slack applies only after the reconciling lookup is found by later looks within
 * the send's late-apply window and deleted.
 */
export class SlackTransport implements CardTransport<SlackMessage, SlackTarget | string> {
  readonly #client: WebClient;
  readonly #config: SlackConfig;
  readonly #limits: SlackLimits;
  readonly #sent = new Map<string, MessageRef>();
  /** Messages whose update Slack refused with `edit_window_closed`: deleted once a fresh card replaces them. */
  readonly #editClosed = new Set<string>();
  /** Posts that failed without a clear answer, by idempotency key: where to look for them before the retry. */
  readonly #uncertain = new Map<string, UncertainPost>();
  readonly #attached = new Map<string, AttachedFile>();
  readonly #sweepDelaysMs: readonly number[];
  /** Copies whose delete failed and which were edited to {@link DUPLICATE_NOTICE} (deleting them is still tried by later looks). */
  readonly #markedDuplicate = new Set<string>();
  readonly #warn: (message: string) => void;

  /**
   * @param options.warn Where a lookup that stopped short is reported (default: `process.emitWarning`).
   */
  constructor(config: SlackConfig, options: { client?: WebClient; limits?: SlackLimits; orphanSweepDelaysMs?: readonly number[]; warn?: (message: string) => void } = {}) {
    this.#config = config;
    this.#warn = options.warn ?? ((message) => process.emitWarning(message, 'ProgresscardSlackWarning'));
    this.#sweepDelaysMs = options.orphanSweepDelaysMs ?? SLACK_ORPHAN_SWEEP_DELAYS_MS;
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
    const post = (thread: string | undefined) => this.#inChannel(channel, SLACK_API_ROUTES.postMessage.method, () => SLACK_API_ROUTES.postMessage.call(this.#client, {
      channel,
      text: request.payload.text,
      ...(request.payload.blocks ? { blocks: [...request.payload.blocks] } : {}),
      ...(thread ? { thread_ts: thread } : {}),
      ...(thread && request.broadcast ? { reply_broadcast: true } : {}),
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: METADATA_EVENT_TYPE, event_payload: { idempotency_key: request.idempotencyKey } },
    } as Parameters<typeof SLACK_API_ROUTES.postMessage.call>[1]));
    const key = request.idempotencyKey;
    const earlier = this.#uncertain.get(key);
    const sweepDelays = sweepDelaysFor(this.#sweepDelaysMs, request.lateApplyWindowMs);
    if (earlier) {
      const adopted = await this.#reconcile(key, earlier);
      if (adopted) {
        const ref = this.#remember(key, adopted.kept);
        // Another unanswered post under the key may still be applied, or a copy could not be deleted: look again.
        if (earlier.posts > 1 || adopted.undeleted > 0) this.#sweepLater(key, ref, earlier, sweepDelays);
        return ref;
      }
    }
    // Seconds before the post, with a margin for clock skew: where a lookup of it starts.
    const postedAfter = Date.now() / 1000 - RECONCILE_SKEW_S;
    let answer: Awaited<ReturnType<typeof post>>;
    try {
      try {
        answer = await post(threadTs);
      } catch (error) {
        // The triggering message is gone (deleted, or a stale or wrong ts): Slack refuses the reply
        // every time, so the card goes into the channel instead, as Feishu does for a recalled message.
        if (request.replyTo || !threadTs || !isThreadGone(error)) throw error;
        answer = await post(undefined);
      }
    } catch (error) {
      // No clear answer: Slack may have posted it. Look for it before the retry posts again.
      if (this.classify(error).kind === 'transient') this.#uncertain.set(key, earlier ? { ...earlier, posts: earlier.posts + 1 } : { channel, threadTs, postedAfter, posts: 1 });
      throw error;
    }
    if (!answer.ts) throw new SlackLocalError('chat.postMessage answered without ts');
    const ref = this.#remember(key, { id: answer.ts, extra: { channel: answer.channel ?? channel } });
    if (earlier) this.#sweepLater(key, ref, earlier, sweepDelays);
    if (request.replaces && this.#editClosed.delete(request.replaces.id)) await this.#deleteClosed(request.replaces, channel);
    return ref;
  }

  /**
   * Deletes a card Slack no longer lets the app edit (`edit_window_closed`), now that a fresh card
   * holds it: it would stay "running" next to the fresh one. A bot may delete its own messages
   * (https://docs.slack.dev/reference/methods/chat.delete); a workspace that restricts deletion
   * refuses it (UNCONFIRMED which error), and the old card then stays as it was: a refusal or a
   * failure is dropped, the fresh card is what counts.
   */
  async #deleteClosed(message: MessageRef, fallbackChannel: string): Promise<void> {
    const known = message.extra?.channel;
    const channel = typeof known === 'string' ? known : fallbackChannel;
    try {
      await this.#inChannel(channel, SLACK_API_ROUTES.delete.method, () => SLACK_API_ROUTES.delete.call(this.#client, { channel, ts: message.id }));
    } catch {
      // (decoration: the fresh card is delivered either way)
    }
  }

  #remember(key: string, ref: MessageRef): MessageRef {
    this.#uncertain.delete(key);
    this.#sent.set(key, ref);
    if (this.#sent.size > 10_000) this.#sent.delete(this.#sent.keys().next().value as string);
    if (this.#uncertain.size > 10_000) this.#uncertain.delete(this.#uncertain.keys().next().value as string);
    return ref;
  }

  /**
   * Looks for the message an earlier post under `key` may have created: the channel's messages
   * since that post (its thread's, for a reply) whose metadata carries `key`. The oldest is
   * adopted and every other one deleted (two unanswered posts may both have been applied: one
   * message per key remains). Undefined when none is found, or when the lookup is refused (e.g. no
   * `channels:history` scope): then the retry posts. A lookup without a clear answer throws, so
   * the core retries later instead of posting a second message now.
   */
  async #reconcile(key: string, earlier: UncertainPost): Promise<{ kept: MessageRef; undeleted: number } | undefined> {
    let found: readonly string[];
    try {
      found = await this.#postsUnder(key, earlier);
    } catch (error) {
      const kind = this.classify(error).kind;
      if (kind === 'transient' || kind === 'rate-limited') throw error;
      return undefined;
    }
    const [kept, ...copies] = found;
    if (kept === undefined) return undefined;
    const undeleted = await this.#deleteCopies(copies, earlier.channel);
    return { kept: { id: kept, extra: { channel: earlier.channel } }, undeleted };
  }

  /**
   * Deletes late copies of a card's message (`chat.delete`). A copy whose delete fails is edited
   * (`chat.update`, once) to {@link DUPLICATE_NOTICE}, so it does not stay "running" beside the card's
   * message; later looks try to delete it again. Answers how many copies remain; a failed edit is dropped.
   */
  async #deleteCopies(copies: readonly string[], channel: string): Promise<number> {
    let undeleted = 0;
    for (const ts of copies) {
      try {
        await this.#inChannel(channel, SLACK_API_ROUTES.delete.method, () => SLACK_API_ROUTES.delete.call(this.#client, { channel, ts }));
        this.#markedDuplicate.delete(ts);
      } catch {
        undeleted += 1;
        await this.#markDuplicate(ts, channel);
      }
    }
    return undeleted;
  }

  async #markDuplicate(ts: string, channel: string): Promise<void> {
    if (this.#markedDuplicate.has(ts)) return;
    try {
      await this.#inChannel(channel, SLACK_API_ROUTES.update.method, () => SLACK_API_ROUTES.update.call(this.#client, { channel, ts, text: DUPLICATE_NOTICE, blocks: [] } as Parameters<typeof SLACK_API_ROUTES.update.call>[1]));
      this.#markedDuplicate.add(ts);
      if (this.#markedDuplicate.size > 10_000) this.#markedDuplicate.delete(this.#markedDuplicate.values().next().value as string);
    } catch {
      // (a later look tries again; the kept message is delivered either way)
    }
  }

  /**
   * The `ts` of every message since `earlier`'s post (in its thread, for a reply) whose metadata
   * carries `key`, oldest first. Reads every page since then (`oldest` bounds the lookup; pages
   * follow `response_metadata.next_cursor`, https://api.slack.com/methods/conversations.history#pagination),
   * at most {@link LOOKUP_MAX_PAGES}: a busy channel pushes the post off the first page.
   */
  async #postsUnder(key: string, earlier: UncertainPost): Promise<string[]> {
    const { channel, threadTs, postedAfter } = earlier;
    const common = { channel, oldest: postedAfter.toFixed(6), inclusive: true, include_all_metadata: true, limit: LOOKUP_PAGE_SIZE };
    const found: string[] = [];
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      const args = { ...common, ...(cursor ? { cursor } : {}) };
      const answer = await this.#inChannel(channel, threadTs ? SLACK_API_ROUTES.replies.method : SLACK_API_ROUTES.history.method, () =>
        threadTs ? SLACK_API_ROUTES.replies.call(this.#client, { ...args, ts: threadTs }) : SLACK_API_ROUTES.history.call(this.#client, args),
      );
      for (const message of answer.messages ?? []) {
        const candidate = message as { ts?: unknown; metadata?: { event_type?: unknown; event_payload?: { idempotency_key?: unknown } } };
        if (candidate.metadata?.event_type === METADATA_EVENT_TYPE && candidate.metadata.event_payload?.idempotency_key === key && typeof candidate.ts === 'string') found.push(candidate.ts);
      }
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!answer.has_more || !cursor) break;
      if (page >= LOOKUP_MAX_PAGES) {
        this.#warn(`Slack: the lookup for an unanswered post in channel ${channel} stopped after ${page} pages of ${LOOKUP_PAGE_SIZE} messages; older messages were not read, so a copy of the card's message may remain`);
        break;
      }
    }
    return [...new Set(found)].sort((a, b) => Number(a) - Number(b));
  }

  /**
   * The card's message under `key` is settled as `kept` (a retry posted it after a lookup found no
   * earlier post, or a lookup adopted one while another post went unanswered too), but Slack may
   * still apply an unanswered post (it has no idempotency key): the channel is looked at again after
   * each of `delaysMs` (covering the send's late-apply window, {@link sweepDelaysFor}), and any other
   * message carrying `key` is deleted (`chat.delete`), so one card remains. Each look is one
   * `conversations.history` (or `.replies`) call; a failed look or delete is dropped.
   */
  #sweepLater(key: string, kept: MessageRef, earlier: UncertainPost, delaysMs: readonly number[]): void {
    for (const delayMs of delaysMs) {
      // Unref'd: a pending look never keeps the process alive.
      setTimeout(() => void this.#sweep(key, kept, earlier), delayMs).unref?.();
    }
  }

  async #sweep(key: string, kept: MessageRef, earlier: UncertainPost): Promise<void> {
    try {
      await this.#deleteCopies((await this.#postsUnder(key, earlier)).filter((ts) => ts !== kept.id), earlier.channel);
    } catch {
      // (a later look tries again; the kept card is delivered either way)
    }
  }

  /** Replaces the message's text and blocks (the plain-text fallback clears the blocks). */
  async #update(request: UpdateRequest<SlackMessage>): Promise<void> {
    this.#guard(request.payload);
    const known = request.message.extra?.channel;
    const channel = typeof known === 'string' ? known : this.#config.channel;
    try {
      await this.#inChannel(channel, SLACK_API_ROUTES.update.method, () => SLACK_API_ROUTES.update.call(this.#client, {
        channel,
        ts: request.message.id,
        text: request.payload.text,
        blocks: [...(request.payload.blocks ?? [])],
      } as Parameters<typeof SLACK_API_ROUTES.update.call>[1]));
    } catch (error) {
      if ((error as { data?: { error?: unknown } } | null)?.data?.error === 'edit_window_closed') {
        this.#editClosed.add(request.message.id);
        if (this.#editClosed.size > 10_000) this.#editClosed.delete(this.#editClosed.values().next().value as string);
      }
      throw error;
    }
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
    const answer = await this.#inChannel(channel, SLACK_API_ROUTES.history.method, () =>
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
    const answer = await this.#inChannel(channel, SLACK_API_ROUTES.uploadFile.method, () =>
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

  /**
   * Makes one call of Web API `method` to `channel`: counted as a platform call, its failure
   * remembered with the channel (for a `target` failure) and the method ({@link ownLimit}): Slack
   * counts limits "per API method per app per workspace", so a 429 is scoped to the method and the
   * core pauses only the budget keys of the operation that made the call (a 429 on chat.update
   * holds no card's chat.postMessage).
   */
  async #inChannel<T>(channel: string, method: string, call: () => Promise<T>): Promise<T> {
    platformCallMade();
    try {
      return await ownLimit(method, call);
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
