import type { WeComPayload } from '../render/payload.js';

/**
 * A user's message to the bot and the stream that answers it: the state WeCom's polls are served
 * from. WeCom pulls (https://developer.work.weixin.qq.com/document/path/100719, 流程说明 step 3): after
 * the bot's first `stream` reply it sends a "stream refresh" callback for the stream id about once a
 * second (cadence UNCONFIRMED) until a reply says `finish: true`, for at most 6 minutes from the
 * user's message; each reply carries the stream's whole content.
 */
export interface Turn {
  /** The user message's `msgid` (WeCom may send a callback again: it is deduplicated by this). */
  readonly msgid: string;
  /** The stream id this bot chose for its answer. */
  readonly streamId: string;
  readonly userId: string;
  readonly chatId?: string;
  readonly chatType: 'single' | 'group';
  /** Single use, valid 1 hour (https://developer.work.weixin.qq.com/document/path/101138). */
  readonly responseUrl?: string;
  /** Epoch ms the message arrived; the stream window runs from here. */
  readonly receivedAt: number;
  /** The card answering on the stream, once bound. */
  card?: string;
  /** What the next poll answers with. */
  payload?: WeComPayload;
  /** Bumped on every new payload; `served` is the version the last poll answered with. */
  version: number;
  served: number;
  /** True once a poll was answered with `finish: true`. */
  finished: boolean;
  /** True once the stream's template card went out (one card per message). */
  cardAttached: boolean;
  /** Epoch ms of the last poll (or the first reply). */
  lastPollAt: number;
  /** Who holds the `response_url` (an idempotency key), once it is claimed. */
  responseUrlClaim?: string;
  /** Resolved when a poll serves at least the version they wait for. */
  waiters: { version: number; resolve: () => void }[];
}

/** The plain stream reply a poll gets (before encryption). */
export interface StreamReply {
  readonly msgtype: 'stream' | 'stream_with_template_card';
  readonly stream: { readonly id: string; readonly finish: boolean; readonly content: string };
  readonly template_card?: unknown;
}

/** The turns of one bot, by msgid and by stream id, in arrival order. */
export class Turns {
  private readonly byMsgid = new Map<string, Turn>();
  private readonly byStream = new Map<string, Turn>();

  constructor(
    private readonly keepMs: number,
    private readonly now: () => number,
  ) {}

  /** The turn of `msgid`, or a new one made by `make` (WeCom may repeat a callback). */
  open(msgid: string, make: () => Omit<Turn, 'version' | 'served' | 'finished' | 'cardAttached' | 'waiters' | 'lastPollAt'>): { turn: Turn; repeated: boolean } {
    this.forgetOld();
    const known = this.byMsgid.get(msgid);
    if (known) return { turn: known, repeated: true };
    const turn: Turn = { ...make(), version: 0, served: 0, finished: false, cardAttached: false, waiters: [], lastPollAt: this.now() };
    this.byMsgid.set(msgid, turn);
    this.byStream.set(turn.streamId, turn);
    return { turn, repeated: false };
  }

  byMessage(msgid: string): Turn | undefined {
    return this.byMsgid.get(msgid);
  }

  byStreamId(streamId: string): Turn | undefined {
    return this.byStream.get(streamId);
  }

  /** The oldest turn no card answers yet. */
  oldestUnanswered(): Turn | undefined {
    for (const turn of this.byMsgid.values()) if (turn.card === undefined) return turn;
    return undefined;
  }

  /** Drops turns older than `keepMs` (their stream and response_url are long dead). */
  private forgetOld(): void {
    const before = this.now() - this.keepMs;
    for (const [msgid, turn] of this.byMsgid) {
      if (turn.receivedAt >= before) break;
      this.byMsgid.delete(msgid);
      this.byStream.delete(turn.streamId);
      for (const waiter of turn.waiters) waiter.resolve();
    }
  }
}
