import type { CardView } from '../../card/view.js';
import type { BudgetedCall, CallFailure, ChannelPlugin, MessageRef } from '../../plugin/contract.js';
import type { StreamingMode } from '../../plugin/stream-contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import { isProgressive } from '../calls/call-cap.js';
import type { CallPipeline } from '../calls/call-pipeline.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { DeliveryCall } from '../delivery-observers.js';
import type { CardStoreWriter } from '../durable/card-store-writer.js';
import type { FailureHandling } from '../failures/failure-handling.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import { WAIT, again, heldBack, settle, type FlushCall, type FlushDecision, type FlushOutcome } from '../schedule/flush-outcome.js';
import { streamPaceMs, unkeepableStream } from './stream-pacing.js';
import { StreamSession, type StreamStep } from './stream-session.js';

/** What {@link StreamDispatch} is built from: the channel's own parts. */
export interface StreamDispatchParts {
  readonly plugin: ChannelPlugin;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly budget: Pick<ChannelBudget, 'keysOf'>;
  readonly calls: CallPipeline;
  readonly failures: FailureHandling;
  readonly store: CardStoreWriter;
  /** The channel's per-card interval (ms): the least time between two calls of a card. */
  readonly perCardIntervalMs: number;
  /** Asks for a flush of a card whose open stream needs a keep-alive now. */
  readonly wake: (record: CardDeliveryRecord) => void;
}

/** The budgeted call of a stream step. */
function budgetedCall(record: CardDeliveryRecord, step: StreamStep, stream: MessageRef | undefined): BudgetedCall {
  const { target, replyToMessage } = record.card;
  if (step.op === 'start') return { kind: 'send', target, stream: 'start', ...(replyToMessage && { replyToMessage }) };
  return { kind: 'update', target, message: stream, stream: step.op === 'append' ? 'append' : 'stop' };
}

/**
 * True when `step` is a progressive stream call the call cap may hold back: an append of new
 * content of a running card, or the start of a fresh stream after a roll-over (`sequence` > 0: the
 * streams the card started so far), which would only carry held-back text. Never the card's first
 * start, a stop, a keep-alive or a final's call (a keep-alive the cap would hold is sent as the
 * stream's roll-over stop instead, see {@link StreamDispatch.prepare}). Appends count against the cap like edits: on a
 * long answer they are most of a card's calls; a held roll-over start leaves the card without an
 * open stream until the cap lets progress go again or the final opens one.
 */
function isCappable(record: CardDeliveryRecord, final: boolean, view: CardView, step: StreamStep, sequence: number): boolean {
  const progressiveOp = (step.op === 'append' && !step.keepAlive) || (step.op === 'start' && sequence > 0);
  return progressiveOp && isProgressive(record, final, view);
}

/**
 * Delivers the cards of a streaming channel ({@link ChannelPlugin.streaming}) as native streams:
 * decides each card's next stream call ({@link StreamSession.next}), makes it through the
 * channel's budgets, applies the lifecycle table (`stream-phases.ts`) to its answer, and keeps an
 * idle stream alive with a timer. A card the mode does not apply to, a card continuing a message
 * sent before (resumed), and a card whose stream could not open use the edit mode (`undefined`
 * from {@link prepare}).
 */
export class StreamDispatch {
  private readonly sessions = new WeakMap<CardDeliveryRecord, StreamSession>();
  private readonly keepAlive = new WeakMap<CardDeliveryRecord, NodeJS.Timeout>();
  private readonly mode: StreamingMode | undefined;
  /** A stream the cards' pacing cannot keep was logged once. */
  private warnedUnkeepable = false;

  constructor(private readonly deps: StreamDispatchParts) {
    this.mode = deps.plugin.streaming;
  }

  /**
   * True when the card's stream ended holding its whole answer (the final, or the user's stop) and the
   * channel sends no continuation replies after a stream ({@link StreamingMode.continuationReplies}):
   * the renderer's continuation parts are then not the card's to deliver.
   */
  holdsWholeAnswer(record: CardDeliveryRecord): boolean {
    const phase = this.sessions.get(record)?.phase;
    return this.mode?.continuationReplies !== true && (phase === 'finished' || phase === 'stopped-by-user');
  }

  /** The card's stream session; undefined when the card is not (or no longer) streamed. */
  private sessionOf(record: CardDeliveryRecord): StreamSession | undefined {
    const mode = this.mode;
    if (!mode) return undefined;
    let session = this.sessions.get(record);
    if (!session) {
      if (record.messagePhase !== 'unsent') return undefined;
      const { target, replyToMessage, requester } = record.card;
      if (mode.appliesTo && !mode.appliesTo({ target, ...(replyToMessage && { replyToMessage }), ...(requester && { requester }) })) return undefined;
      const pace = streamPaceMs(record, this.deps.perCardIntervalMs, (call) => this.deps.budget.keysOf(call));
      session = new StreamSession(mode, pace);
      this.sessions.set(record, session);
      const unkeepable = unkeepableStream(mode, pace);
      if (unkeepable) {
        if (!this.warnedUnkeepable) this.deps.logger.warn(`${this.deps.plugin.id}: ${unkeepable}`, { channel: this.deps.plugin.id, paceMs: pace, maxAgeMs: mode.lifetime.maxAgeMs });
        this.warnedUnkeepable = true;
        session.useEditMode();
      }
    }
    return session.phase === 'edit' ? undefined : session;
  }

  /**
   * The card's next flush as a stream: the call to make, an outcome when there is nothing to send
   * now (`wait`, or `settle` for a final the stream already ended), or `undefined` when the card is
   * delivered in edit mode (the caller renders it as usual).
   */
  prepare(record: CardDeliveryRecord, final: boolean, view: CardView): FlushDecision | undefined {
    const session = this.sessionOf(record);
    if (!session) return undefined;
    if (session.phase === 'stopped-by-user' || session.phase === 'finished') return final ? settle(true) : WAIT;
    // A stream shows no buttons: a question moves the card to edit mode (a fresh message showing the
    // whole card with its controls), after the open stream is closed with what it still lacks.
    if (view.controls?.pending && !final) {
      if (session.phase === 'idle') return this.toEditMode(record, session);
      const closing = session.next(view, true, this.deps.clock.now());
      if (closing?.op === 'stop-final') return this.callFor(record, session, final, view, { ...closing, op: 'stop-roll-over' as const });
    }
    // A run that ended before its first stream opened needs no stream: one message (the channel's
    // send) holds the final, where a stream takes a start and a stop (Slack: Tier 2 each, 20 a
    // minute per workspace, against chat.postMessage's one a second per channel).
    if (final && session.phase === 'idle' && session.sequence === 0) return this.toEditMode(record, session);
    const step = session.next(view, final, this.deps.clock.now());
    if (!step) {
      this.scheduleKeepAlive(record, session);
      return WAIT;
    }
    // A keep-alive counts against the call cap like any call: once the cap holds progress, the stream is closed instead of kept.
    if (step.keepAlive && isProgressive(record, final, view) && this.deps.calls.heldUntil(record) !== undefined) {
      return this.callFor(record, session, final, view, session.closing());
    }
    // An append (or a roll-over's fresh start) the call cap would hold back waits without taking a budget slot; its text goes with a later call.
    const heldUntil = isCappable(record, final, view, step, session.sequence) ? this.deps.calls.heldUntil(record) : undefined;
    if (heldUntil !== undefined) {
      // The held content waits, but the stream must not expire meanwhile: when a keep-alive is due, the stream is closed (the cap holds it too).
      if (session.keepAliveDue(this.deps.clock.now())) return this.callFor(record, session, final, view, session.closing());
      this.scheduleKeepAlive(record, session);
      return heldBack(heldUntil);
    }
    return this.callFor(record, session, final, view, step);
  }

  private callFor(record: CardDeliveryRecord, session: StreamSession, final: boolean, view: CardView, step: StreamStep): FlushCall {
    const keys = this.deps.budget.keysOf(budgetedCall(record, step, session.stream));
    return { keys, send: () => this.deliver(record, session, final, view, step) };
  }

  /** Makes one stream call and applies the lifecycle table to its answer. Never rejects. */
  private async deliver(record: CardDeliveryRecord, session: StreamSession, final: boolean, view: CardView, step: StreamStep): Promise<FlushOutcome> {
    const { transport } = this.mode!;
    const call: DeliveryCall = step.op === 'start' ? 'send' : 'update';
    if (final) record.finalAttemptStarted();
    const attempt = final ? record.totalFinalAttempts : record.failureStreak + 1;
    const stream = session.stream;
    const result = await this.deps.calls.call<MessageRef | undefined>(record, call, final, attempt, async () => {
      if (step.op === 'start') {
        const { target, replyToMessage, requester } = record.card;
        return transport.start({ target, ...(replyToMessage && { replyToMessage }), ...(requester && { requester }), idempotencyKey: `${record.sendKey}-s${session.sequence}`, content: step.content, sequence: session.sequence, view });
      }
      if (step.op === 'append') await transport.append({ stream: stream!, content: step.content, keepAlive: step.keepAlive });
      else await transport.stop({ stream: stream!, content: step.content, reason: step.op === 'stop-final' ? 'final' : 'roll-over', view });
      return undefined;
    }, isCappable(record, final, view, step, session.sequence));
    if (result.ok === 'held') {
      // Not shown: the session still lacks this text, the next append carries it.
      this.scheduleKeepAlive(record, session);
      return heldBack(result.until);
    }
    if (!result.ok) return this.failed(record, session, final, step, result.failure, call);
    const started = result.value;
    // The platform's clock of the stream started somewhere between the call's start and its answer: count from the start.
    session.accepted(step, result.startedAt, started);
    if (started) record.continuedIn(started);
    record.callSucceeded();
    this.deps.store.put(record, view);
    if (session.phase === 'finished' && !this.mode!.continuationReplies) return this.settled(record);
    if (session.phase === 'finished') {
      // The stream message holds the final: continuation parts (the answer past the card's share) reply to it; the next flush sends them or settles.
      record.accepted(`stream-final-${session.sequence}`);
      this.clearKeepAlive(record);
      return again();
    }
    // More to send (text over the per-call limit, a roll-over's fresh stream, the final): at once.
    if (final || step.op === 'stop-roll-over' || session.next(record.card.view(), false, this.deps.clock.now())) return again();
    this.scheduleKeepAlive(record, session);
    return WAIT;
  }

  /** The lifecycle table's failure columns (see `stream-phases.ts`); the rest is the channel's failure table. */
  private async failed(record: CardDeliveryRecord, session: StreamSession, final: boolean, step: StreamStep, failure: CallFailure, call: DeliveryCall): Promise<FlushOutcome> {
    const fields = { card: record.card.id, channel: this.deps.plugin.id, kind: failure.kind, detail: failure.detail };
    if (failure.kind === 'stopped-by-user') {
      if (session.stoppedByUser()) {
        this.deps.logger.debug('the user stopped the stream on the platform: the run is cancelled, nothing more is sent', fields);
        this.clearKeepAlive(record);
        record.card.onPlatformStop?.(failure.detail);
      }
      return final ? this.settled(record) : WAIT;
    }
    if (step.op !== 'start' && (failure.kind === 'stream-ended' || (step.op === 'stop-roll-over' && failure.kind === 'rejected'))) {
      // The stream is closed (or would not close politely): what it did not take opens a fresh one.
      this.deps.logger.debug('stream ended, continuing in a fresh stream', fields);
      session.ended();
      if (final) record.finalAttemptRefunded();
      return again();
    }
    if (step.op === 'start' && session.sequence === 0 && (failure.kind === 'rejected' || failure.kind === 'missing-scope')) {
      // A refused or unscoped stream route says nothing against the channel's send: this card goes on in edit mode.
      this.deps.logger.warn('stream refused, the card uses the channel\'s edit mode', fields);
      session.useEditMode();
      if (final) record.finalAttemptRefunded();
      return again();
    }
    if (failure.kind === 'gone') session.ended();
    return this.deps.failures.mainFailed(record, final, failure, call, this.deps.budget.keysOf(budgetedCall(record, step, session.stream)));
  }

  /** The card leaves its (closed) stream for the channel's edit mode; undefined: the caller renders it. */
  private toEditMode(record: CardDeliveryRecord, session: StreamSession): undefined {
    this.clearKeepAlive(record);
    session.useEditMode();
    // The card goes on in a fresh message: the stream message keeps what it streamed.
    if (record.messagePhase === 'live') record.messageGone();
    return undefined;
  }

  /** The stream delivered the final (or the user stopped it): the card settles ok. */
  private settled(record: CardDeliveryRecord): FlushOutcome {
    this.clearKeepAlive(record);
    return settle(true);
  }

  /** Sets the timer that wakes the card when its open stream needs a keep-alive. */
  private scheduleKeepAlive(record: CardDeliveryRecord, session: StreamSession): void {
    this.clearKeepAlive(record);
    const at = session.wakeAt();
    if (at === undefined) return;
    const timer = setTimeout(() => {
      this.keepAlive.delete(record);
      this.deps.wake(record);
    }, Math.max(0, at - this.deps.clock.now()));
    // The run keeps the process alive, not its stream's keep-alive.
    timer.unref();
    this.keepAlive.set(record, timer);
  }

  private clearKeepAlive(record: CardDeliveryRecord): void {
    const timer = this.keepAlive.get(record);
    if (timer) clearTimeout(timer);
    this.keepAlive.delete(record);
  }

  /** Drops a card's keep-alive timer (its final settled elsewhere). */
  forget(record: CardDeliveryRecord): void {
    this.clearKeepAlive(record);
  }
}
