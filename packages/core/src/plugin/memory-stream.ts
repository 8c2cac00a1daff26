import { formatFooter, type FooterStyle } from '../card/format/footer.js';
import type { CardStatus, CardView } from '../card/view.js';
import type { CallFailure, MessageRef } from './contract.js';
import type { StreamContent, StreamingMode, StreamLifetime, StreamTask, StreamTextMode, StreamChunkKind } from './stream-contract.js';

/**
 * The in-memory channel's native stream (`memoryChannel({ streaming })`): a model of the platforms'
 * streams for tests of the core's stream lifecycle and for the conformance suite.
 */
export interface MemoryStreamOptions {
  readonly lifetime: StreamLifetime;
  /** Default `append`. */
  readonly text?: StreamTextMode;
  /** Default `['plan', 'tasks']`. */
  readonly chunks?: readonly StreamChunkKind[];
  /** Default true: `stopStream(id)` models the platform's own Stop. */
  readonly platformStop?: boolean;
  readonly maxTextCharsPerCall?: number;
  /**
   * What a call to a stream past its lifetime gets: `refuse` (default) answers `stream-ended`
   * (Slack `message_not_in_streaming_state`); `ignore` acknowledges it without showing it (WeCom
   * after 846608: later frames are acked and dropped).
   */
  readonly expired?: 'refuse' | 'ignore';
}

/** A stream message of the in-memory channel. */
export interface MemoryStream {
  state: 'streaming' | 'stopped' | 'expired' | 'stopped-by-user';
  /** `running` until a final stop sets the run's terminal status. */
  status: CardStatus;
  readonly startedAt: number;
  /** Epoch ms of the last accepted call. */
  lastCallAt: number;
  /** The text shown (appended deltas, or the last full text). */
  text: string;
  /** The latest plan shown, as `text (status)` lines. */
  plan: string[];
  /** Task steps by id, latest state. */
  readonly tasks: Map<string, StreamTask>;
  /** Set by a final stop: the footer shown below the text. */
  footer?: string;
  /** Set by a roll-over stop. */
  continued?: boolean;
  /** Calls acknowledged but not shown (`expired: 'ignore'`). */
  ignoredCalls: number;
}

/** One stream call, as the channel records it. */
export interface MemoryStreamCall {
  readonly op: 'start' | 'append' | 'stop';
  readonly id: string;
  readonly stream: MemoryStream;
  readonly failure?: CallFailure;
  /** Acknowledged but not shown (an expired stream with `expired: 'ignore'`). */
  readonly ignored?: true;
  /** Set on a start: the message to create. */
  readonly create?: { readonly target: unknown };
}

/** What a memory stream call throws (the channel's `classify` answers its failure). */
export class MemoryStreamFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(`${failure.kind}: ${failure.detail}`);
  }
}

/** The memory streams of a channel, and the {@link StreamingMode} that drives them. */
export class MemoryStreams {
  readonly streams = new Map<string, MemoryStream>();
  readonly mode: StreamingMode<string>;
  private readonly byKey = new Map<string, string>();

  constructor(
    private readonly options: MemoryStreamOptions,
    footerStyle: FooterStyle,
    /** Records a call (and its failure) in the channel's call log, and creates the message on a start. */
    private readonly record: (call: MemoryStreamCall) => void,
    /** The failure the channel's pending faults answer a stream call with (see `MemoryFault`), if any. */
    private readonly takeFault: (op: MemoryStreamCall['op']) => CallFailure | undefined = () => undefined,
  ) {
    const streams = this;
    this.mode = {
      lifetime: options.lifetime,
      text: options.text ?? 'append',
      chunks: options.chunks ?? ['plan', 'tasks'],
      platformStop: options.platformStop ?? true,
      ...(options.maxTextCharsPerCall === undefined ? {} : { maxTextCharsPerCall: options.maxTextCharsPerCall }),
      transport: {
        async start({ target, idempotencyKey, content }): Promise<MessageRef> {
          const existing = streams.byKey.get(idempotencyKey);
          if (existing) return { id: existing };
          const id = `s${streams.streams.size + 1}`;
          const now = Date.now();
          const stream: MemoryStream = { state: 'streaming', status: 'running', startedAt: now, lastCallAt: now, text: '', plan: [], tasks: new Map(), ignoredCalls: 0 };
          const failure = streams.takeFault('start');
          if (failure) {
            // Refused: logged under the id it would have had, no message created.
            streams.record({ op: 'start', id, stream, failure });
            throw new MemoryStreamFailure(failure);
          }
          streams.apply(stream, content);
          streams.streams.set(id, stream);
          streams.byKey.set(idempotencyKey, id);
          streams.record({ op: 'start', id, stream, create: { target } });
          return { id };
        },
        async append({ stream, content }) {
          streams.call('append', stream.id, (s) => streams.apply(s, content));
        },
        async stop({ stream, content, reason, view }) {
          streams.call('stop', stream.id, (s) => {
            streams.apply(s, content);
            s.state = 'stopped';
            if (reason === 'final') {
              s.footer = footerOf(view, footerStyle);
              s.status = view.status;
            }
            else s.continued = true;
          });
        },
      },
    };
  }

  /** The user presses the platform's Stop on stream `id`: later calls fail with `stopped-by-user`. */
  stop(id: string): void {
    const stream = this.streams.get(id);
    if (!stream) throw new Error(`no memory stream ${id}`);
    stream.state = 'stopped-by-user';
  }

  private call(op: 'append' | 'stop', id: string, apply: (stream: MemoryStream) => void): void {
    const stream = this.streams.get(id);
    if (!stream) throw new MemoryStreamFailure({ kind: 'gone', detail: `no stream ${id}` });
    const now = Date.now();
    const { maxAgeMs, idleExpiryMs } = this.options.lifetime;
    if (stream.state === 'streaming' && ((maxAgeMs !== undefined && now - stream.startedAt > maxAgeMs) || (idleExpiryMs !== undefined && now - stream.lastCallAt > idleExpiryMs))) {
      stream.state = 'expired';
    }
    // The channel's pending fault (failNext) answers first, then the stream's own state.
    let failure = this.takeFault(op);
    if (!failure && stream.state === 'stopped-by-user') failure = { kind: 'stopped-by-user', detail: '403 ContentStreamNotAllowed: Content stream was canceled by user' };
    else if (!failure && stream.state === 'expired' && this.options.expired === 'ignore') {
      stream.ignoredCalls += 1;
      this.record({ op, id, stream, ignored: true });
      return;
    } else if (!failure && stream.state !== 'streaming') failure = { kind: 'stream-ended', detail: `stream ${id} is ${stream.state}` };
    if (failure) {
      this.record({ op, id, stream, failure });
      throw new MemoryStreamFailure(failure);
    }
    stream.lastCallAt = now;
    apply(stream);
    this.record({ op, id, stream });
  }

  private apply(stream: MemoryStream, content: StreamContent): void {
    stream.text = this.mode.text === 'full' ? content.text : stream.text + content.text;
    if (content.plan) stream.plan = content.plan.items.map((item) => `${item.text} (${item.status})`);
    for (const task of content.tasks ?? []) stream.tasks.set(task.id, task);
  }
}

function footerOf(view: CardView, style: FooterStyle): string {
  return formatFooter(view.footer, { style, locale: view.locale, timeZone: 'UTC' });
}
