import type { CallFailure, CardTransport, MessageRef, SendRequest, UpdateRequest } from '@progresscard/core/plugin';
import type { WeComPayload } from '../render/payload.js';
import { classifyWeComError } from './classify.js';
import { WeComStreamGoneError, WeComTargetError } from './errors.js';
import { postToResponseUrl, type FetchLike } from './response-url.js';
import type { StreamReply, Turn, Turns } from './turns.js';

/**
 * Where a WeCom card goes: the user message it answers (its `msgid`, as `onMessage` hands it over).
 * `undefined` (the plugin's default target) answers the oldest user message no card answers yet.
 */
export interface WeComTarget {
  readonly msgid: string;
}

/** Options of {@link WeComTransport}; durations in ms. */
export interface WeComTransportOptions {
  readonly turns: Turns;
  /** How long after the user's message the stream is still refreshed (WeCom: 6 minutes; default leaves a margin). */
  readonly streamWindowMs: number;
  /** No poll for this long: WeCom dropped the stream (it stopped refreshing it). */
  readonly pollGoneAfterMs: number;
  /** `response_url` lifetime: 1 hour (https://developer.work.weixin.qq.com/document/path/101138). */
  readonly responseUrlTtlMs: number;
  readonly requestTimeoutMs: number;
  readonly fetch: FetchLike;
  readonly now: () => number;
}

/** A message sent through `response_url`: posted once, with the first terminal payload. */
interface ReplyMessage {
  readonly turn: Turn;
  payload: WeComPayload;
  posted: boolean;
}

const REPLY_SUFFIX = '~reply';

/**
 * The WeCom AI bot transport. The card's main message is the stream that answers the user's
 * message: `send` and `update` only set what the next poll of that stream is answered with (the
 * core decides the latest state; WeCom's polls, about one a second, are the pace), and a final
 * `update` resolves once a poll has served it with `finish: true`. When the stream can no longer
 * show it — its 6-minute window closed or WeCom stopped polling — the final is refused as `gone`,
 * and the core sends it again as a fresh message: a post to the user message's `response_url`
 * (single use). A continuation part goes there too. A `response_url` message is posted once, with
 * its first terminal payload (earlier non-final states are kept, not posted: the URL takes one call).
 *
 * No `attachFile`: in the HTTP callback mode this plugin uses, a bot cannot send a file. A stream
 * reply carries text and images only (`msg_item` of `image`, base64), and a `response_url` post
 * takes `markdown` or `template_card` (https://developer.work.weixin.qq.com/document/path/101138).
 * Files need the long-connection mode (`aibot_upload_media_*`, then a media reply; official
 * `@wecom/aibot-node-sdk` `uploadMedia`), which this plugin does not speak. The final card names an
 * attached file as not uploaded. No `messagesAfter` either: the bot sees only the messages sent to
 * it, and no API lists a chat's history.
 */
export class WeComTransport implements CardTransport<WeComPayload, WeComTarget | string> {
  private readonly replies = new Map<string, ReplyMessage>();
  private readonly streamsByKey = new Map<string, string>();

  constructor(private readonly options: WeComTransportOptions) {}

  async send(request: SendRequest<WeComPayload, WeComTarget | string>): Promise<MessageRef> {
    const known = this.streamsByKey.get(request.idempotencyKey);
    const turn = known ? this.options.turns.byStreamId(known) : this.turnOf(request);
    if (!turn) throw new WeComTargetError('wecom: the user message this card answers is no longer known');
    if (!known && (request.replyTo !== undefined || request.replacing || turn.card !== undefined || !this.streamUsable(turn))) return this.sendReply(turn, request);
    turn.card = request.idempotencyKey;
    this.streamsByKey.set(request.idempotencyKey, turn.streamId);
    const message: MessageRef = { id: turn.streamId, extra: { msgid: turn.msgid } };
    await this.update({ message, payload: request.payload, final: request.final === true });
    return message;
  }

  async update(request: UpdateRequest<WeComPayload>): Promise<void> {
    const reply = this.replies.get(request.message.id);
    if (reply) return this.updateReply(reply, request.payload);
    const turn = this.options.turns.byStreamId(request.message.id);
    if (!turn) throw new WeComStreamGoneError(`wecom: stream ${request.message.id} is no longer known`);
    const terminal = request.final || request.payload.terminal;
    if (turn.finished) {
      // The stream already ended with this content (a repeated final): nothing to do.
      if (turn.payload?.markdown === request.payload.markdown) return;
      if (terminal) throw new WeComStreamGoneError(`wecom: stream ${turn.streamId} already finished`);
      return;
    }
    if (!sameShown(turn.payload, request.payload)) {
      turn.payload = request.payload;
      turn.version += 1;
    }
    if (!this.streamUsable(turn)) {
      // Non-final states of a closed stream are kept for nobody; the final must go out elsewhere.
      if (terminal) throw new WeComStreamGoneError(`wecom: stream ${turn.streamId} can no longer be refreshed`);
      return;
    }
    if (terminal) await this.served(turn, turn.version);
  }

  classify(error: unknown): CallFailure {
    return classifyWeComError(error);
  }

  /**
   * The answer to a stream refresh callback for `streamId`: the latest state, `finish: true` once it
   * is terminal. After the window the stream finishes with the latest state and the note that the
   * result follows as a new message. An unknown id is finished empty, so WeCom stops polling it (as
   * the official plugin does).
   */
  answerPoll(streamId: string): StreamReply {
    const turn = this.options.turns.byStreamId(streamId);
    if (!turn) return { msgtype: 'stream', stream: { id: streamId, finish: true, content: '' } };
    const now = this.options.now();
    turn.lastPollAt = now;
    const payload = turn.payload;
    const windowClosed = now - turn.receivedAt >= this.options.streamWindowMs;
    let finish = payload?.terminal === true;
    let content = payload?.markdown ?? '';
    if (windowClosed && !finish) {
      finish = true;
      content = payload ? `${content}\n\n${payload.movedNote}` : '';
    }
    turn.served = turn.version;
    if (finish) turn.finished = true;
    for (const waiter of turn.waiters.splice(0)) {
      if (waiter.version <= turn.served && !windowClosed) waiter.resolve();
      else turn.waiters.push(waiter);
    }
    const card = payload?.card && !turn.cardAttached && !finish ? payload.card : undefined;
    if (card) turn.cardAttached = true;
    return { msgtype: card ? 'stream_with_template_card' : 'stream', stream: { id: streamId, finish, content }, ...(card ? { template_card: card } : {}) };
  }

  /** The turn a first send answers: the target's, else the oldest unanswered one. */
  private turnOf(request: SendRequest<WeComPayload, WeComTarget | string>): Turn | undefined {
    const replyTo = request.replyTo ?? request.replaces;
    if (replyTo) return this.options.turns.byStreamId(replyTo.id.replace(REPLY_SUFFIX, ''));
    const target = request.target;
    if (target === undefined) {
      const turn = this.options.turns.oldestUnanswered();
      if (!turn) throw new WeComTargetError('wecom: no user message waits for an answer (open the card with the message the bot received)');
      return turn;
    }
    const msgid = typeof target === 'string' ? target : target.msgid;
    const turn = this.options.turns.byMessage(msgid);
    if (!turn) throw new WeComTargetError(`wecom: no user message ${msgid} is known (it may be older than the stream state is kept)`);
    return turn;
  }

  /** True while polls can still show a change of the stream. */
  private streamUsable(turn: Turn): boolean {
    const now = this.options.now();
    return !turn.finished && now - turn.receivedAt < this.options.streamWindowMs && now - turn.lastPollAt < this.options.pollGoneAfterMs;
  }

  /** Resolves once a poll served `version`; rejects as gone when the stream stops being usable first. */
  private served(turn: Turn, version: number): Promise<void> {
    if (turn.served >= version) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (this.streamUsable(turn)) return;
        done();
        reject(new WeComStreamGoneError(`wecom: stream ${turn.streamId} was not polled again (window closed or WeCom dropped it)`));
      }, Math.max(10, Math.min(1000, this.options.pollGoneAfterMs / 4)));
      const waiter = {
        version,
        resolve: () => {
          done();
          resolve();
        },
      };
      const done = () => {
        clearInterval(check);
        const at = turn.waiters.indexOf(waiter);
        if (at >= 0) turn.waiters.splice(at, 1);
      };
      turn.waiters.push(waiter);
    });
  }

  /** A message through the turn's `response_url`, claimed by this idempotency key (single use). */
  private async sendReply(turn: Turn, request: SendRequest<WeComPayload, WeComTarget | string>): Promise<MessageRef> {
    if (turn.responseUrl === undefined) throw new WeComTargetError(`wecom: message ${turn.msgid} came without a response_url; nothing can follow the stream`);
    if (turn.responseUrlClaim !== undefined && turn.responseUrlClaim !== request.idempotencyKey) {
      throw new WeComTargetError(`wecom: the response_url of message ${turn.msgid} is already used (single use)`);
    }
    turn.responseUrlClaim = request.idempotencyKey;
    const id = `${turn.streamId}${REPLY_SUFFIX}`;
    const reply = this.replies.get(id) ?? { turn, payload: request.payload, posted: false };
    this.replies.set(id, reply);
    await this.updateReply(reply, request.payload, request.final === true);
    return { id, extra: { msgid: turn.msgid, responseUrl: true } };
  }

  private async updateReply(reply: ReplyMessage, payload: WeComPayload, final = false): Promise<void> {
    if (reply.posted) return;
    reply.payload = payload;
    if (!final && !payload.terminal) return;
    if (this.options.now() - reply.turn.receivedAt >= this.options.responseUrlTtlMs) throw new WeComTargetError(`wecom: the response_url of message ${reply.turn.msgid} expired (1 hour)`);
    await postToResponseUrl(this.options.fetch, reply.turn.responseUrl!, payload, this.options.requestTimeoutMs);
    reply.posted = true;
  }
}

function sameShown(a: WeComPayload | undefined, b: WeComPayload): boolean {
  return a !== undefined && a.markdown === b.markdown && a.terminal === b.terminal && JSON.stringify(a.card) === JSON.stringify(b.card);
}
