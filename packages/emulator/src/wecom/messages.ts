import { InFlightTracker } from '../common/in-flight.js';

/** A call the bot made on a message, as the user's client saw it. */
export interface WeComMessageCall {
  /** `send`: the message first showed content; `update`: it changed. */
  readonly op: 'send' | 'update';
  readonly at: number;
  /** True when WeCom refused it (content over the limit, a spent `response_url`, an injected fault). */
  readonly refused: boolean;
  /** What the message showed after the call. */
  readonly text: string;
}

/** A stream answering one user message. */
export interface WeComStream {
  readonly id: string;
  readonly msgid: string;
  readonly userid: string;
  readonly chatid?: string;
  readonly openedAt: number;
  content: string;
  card?: unknown;
  /** When content first showed (the bot's first non-empty answer). */
  shownAt?: number;
  finished: boolean;
  ended: boolean;
  /** Set when WeCom ended the stream itself (846608: expired). */
  expiredWith?: number;
  polls: number;
  lastGoodPollAt: number;
  readonly calls: WeComMessageCall[];
  readonly inFlight: InFlightTracker;
}

/** A message the user sees, read back. */
export interface WeComMessageSnapshot {
  /** The stream id, or `<streamId>~reply` for the `response_url` message that followed it. */
  readonly id: string;
  readonly kind: 'stream' | 'reply';
  readonly msgid: string;
  readonly userid: string;
  /** The Markdown shown. */
  readonly text: string;
  /** The template card shown with the stream, if any. */
  readonly card?: unknown;
  /** Stream: the bot finished it; reply: always true. */
  readonly finished: boolean;
  /** 846608 when WeCom ended the stream (6 minutes passed, or idle). */
  readonly expiredWith?: number;
  readonly polls: number;
  readonly calls: readonly WeComMessageCall[];
  readonly maxInFlight: number;
  readonly createdAt: number;
  /** For a reply: the stream it follows. */
  readonly follows?: string;
}

interface ReplyMessage {
  readonly streamId: string;
  text: string;
  createdAt: number;
  readonly calls: WeComMessageCall[];
}

/** The streams and replies of one emulated bot. */
export class WeComMessages {
  private readonly streams = new Map<string, WeComStream>();
  private readonly replies = new Map<string, ReplyMessage>();

  openStream(init: { streamId: string; msgid: string; userid: string; chatid?: string; openedAt: number }): WeComStream {
    const known = this.streams.get(init.streamId);
    if (known) return known;
    const stream: WeComStream = { id: init.streamId, msgid: init.msgid, userid: init.userid, ...(init.chatid ? { chatid: init.chatid } : {}), openedAt: init.openedAt, content: '', finished: false, ended: false, polls: 0, lastGoodPollAt: init.openedAt, calls: [], inFlight: new InFlightTracker() };
    this.streams.set(stream.id, stream);
    return stream;
  }

  stream(id: string): WeComStream | undefined {
    return this.streams.get(id);
  }

  /** Streams still open that show no content yet. */
  waiting(): number {
    return [...this.streams.values()].filter((s) => !s.ended && s.shownAt === undefined).length;
  }

  /** The user's streams still in interaction at `now`. */
  liveStreams(userid: string, now: number, windowMs: number): WeComStream[] {
    return [...this.streams.values()].filter((s) => s.userid === userid && !s.ended && now - s.openedAt < windowMs);
  }

  /** A refused `response_url` post of `streamId` (recorded on its reply message). */
  replyCall(streamId: string, at: number, refused: boolean, text = ''): void {
    const reply = this.replies.get(streamId) ?? { streamId, text: '', createdAt: at, calls: [] };
    reply.calls.push({ op: reply.calls.some((c) => !c.refused) ? 'update' : 'send', at, refused, text: refused ? reply.text : text });
    this.replies.set(streamId, reply);
  }

  /** The `response_url` message of `streamId` was posted. */
  reply(streamId: string, text: string, at: number): WeComMessageSnapshot {
    this.replyCall(streamId, at, false, text);
    const reply = this.replies.get(streamId)!;
    reply.text = text;
    reply.createdAt = at;
    return this.replySnapshot(reply);
  }

  snapshotOf(stream: WeComStream): WeComMessageSnapshot {
    return {
      id: stream.id,
      kind: 'stream',
      msgid: stream.msgid,
      userid: stream.userid,
      text: stream.content,
      ...(stream.card === undefined ? {} : { card: stream.card }),
      finished: stream.finished,
      ...(stream.expiredWith === undefined ? {} : { expiredWith: stream.expiredWith }),
      polls: stream.polls,
      calls: [...stream.calls],
      maxInFlight: stream.inFlight.max(stream.id),
      createdAt: stream.shownAt ?? stream.openedAt,
    };
  }

  /** Messages with content (a stream still empty shows WeCom's thinking animation), by first appearance. */
  snapshot(): WeComMessageSnapshot[] {
    const shown = [...this.streams.values()].filter((s) => s.shownAt !== undefined).map((s) => this.snapshotOf(s));
    const replies = [...this.replies.values()].filter((r) => r.text !== '').map((r) => this.replySnapshot(r));
    return [...shown, ...replies].sort((a, b) => a.createdAt - b.createdAt);
  }

  private replySnapshot(reply: ReplyMessage): WeComMessageSnapshot {
    const stream = this.streams.get(reply.streamId);
    return { id: `${reply.streamId}~reply`, kind: 'reply', msgid: stream?.msgid ?? '', userid: stream?.userid ?? '', text: reply.text, finished: true, polls: 0, calls: [...reply.calls], maxInFlight: 1, createdAt: reply.createdAt, follows: reply.streamId };
  }
}
