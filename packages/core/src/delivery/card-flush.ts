import { isTerminalStatus, type CardView } from '../card/view.js';
import type { BudgetedCall, ChannelPlugin, MessageRef } from '../plugin/contract.js';
import type { Clock } from '../shared/clock.js';
import { isProgressive } from './calls/call-cap.js';
import { extraCallBudget, extraCallsOf, withQuota } from './calls/card-calls.js';
import type { CallCounters, CallPipeline } from './calls/call-pipeline.js';
import type { CardDeliveryRecord } from './card-delivery-record.js';
import type { ContinuationDispatch } from './continuations/continuation-dispatch.js';
import type { DeliveryCall } from './delivery-observers.js';
import type { CardStoreWriter } from './durable/card-store-writer.js';
import type { ChannelStop } from './failures/channel-stop.js';
import type { CredentialProbes } from './failures/credential-probes.js';
import type { FailureHandling } from './failures/failure-handling.js';
import type { FinalLadder } from './failures/final-ladder.js';
import type { OutageProbes } from './failures/outage-probes.js';
import type { RefusedOperations } from './failures/refused-operations.js';
import type { ChannelBudget } from './rate-limits/channel-budget.js';
import { WAIT, again, heldBack, isFlushCall, settle, type FlushDecision, type FlushOutcome } from './schedule/flush-outcome.js';
import type { StreamDispatch } from './streams/stream-dispatch.js';

/** What {@link CardFlush} is built from: the channel's own parts. */
export interface CardFlushParts {
  readonly plugin: ChannelPlugin;
  readonly clock: Clock;
  readonly budget: ChannelBudget;
  readonly calls: CallPipeline;
  readonly failures: FailureHandling;
  readonly ladder: FinalLadder;
  readonly stop: ChannelStop;
  readonly refusedOperations: RefusedOperations;
  readonly probes: OutageProbes;
  /** Cards waiting while credentials that had worked are refused, and the probes that bring them back. */
  readonly credentialProbes: CredentialProbes;
  readonly store: CardStoreWriter;
  readonly continuations: ContinuationDispatch;
  readonly streams: StreamDispatch;
  readonly counters: CallCounters;
}

/** The main message's render of one flush, and the call it goes out with. */
interface MainRender {
  readonly payload: unknown;
  readonly key: string;
  readonly view: CardView;
  readonly call: BudgetedCall;
}

/**
 * One flush of one card: renders its latest view and decides the call — a native stream step, the
 * main message's send or update, or its next continuation part — with the budget keys it draws
 * from, or an outcome without a call when the platform already shows the render (no budget slot
 * is taken). The call goes through the channel's {@link CallPipeline}; a failure through its
 * {@link FailureHandling}. Answers what the card needs next as data (`FlushOutcome`).
 */
export class CardFlush {
  constructor(private readonly parts: CardFlushParts) {}

  /** Decides one flush of `record`. Never throws; has no effect when it returns a call (the pump may put the card back to wait for a slot). */
  decide(record: CardDeliveryRecord): FlushDecision {
    const { plugin, stop, continuations, refusedOperations } = this.parts;
    const shown = continuations.decorate(record, record.outage.decorate(record.card.view()));
    const final = isTerminalStatus(shown.status);
    const view = withQuota(shown, record, final, plugin.switches?.monthlyQuota, plugin.transport.callsPerOperation?.final);
    const { credentialProbes } = this.parts;
    // The final names each attached file as uploaded or not: while an upload this process started is still
    // out, an ended card waits (the upload's outcome marks it changed again). A flush marked before the run
    // ended would otherwise send the final with "uploading…". Attachments are not stored, so a resumed card
    // has none pending.
    if (final && view.attachments?.some((file) => file.state === 'pending')) return WAIT;
    if (stop.probesBack && !credentialProbes.isProbe(record)) {
      credentialProbes.wait(record, final);
      return WAIT;
    }
    if (stop.stoppedBy && !final && !credentialProbes.isProbe(record)) {
      record.pause();
      return WAIT;
    }
    const streamed = this.parts.streams.prepare(record, final, view);
    if (streamed !== undefined) {
      // A stream's final shows the card's share of the answer; the rest goes out as continuation parts replying to it, before the final settles.
      if (!isFlushCall(streamed) && streamed.next === 'settle' && streamed.ok) {
        const part = continuations.next(record, view);
        if (part) return continuations.prepare(record, final, part);
      }
      return streamed;
    }
    let payload: unknown;
    let key: string;
    try {
      payload = record.renderMode === 'fallback' ? plugin.renderer.renderFallback(view) : plugin.renderer.render(view);
      key = JSON.stringify(payload);
    } catch (error) {
      return this.parts.failures.renderFailed(record, final, error);
    }
    if (record.shows(key)) {
      const part = continuations.next(record, view);
      if (part) return continuations.prepare(record, final, part);
      this.parts.counters.unchanged += 1;
      // A probe of refused credentials with nothing new to show: the card waits for the next one.
      if (credentialProbes.isProbe(record) && stop.probesBack && !final) {
        credentialProbes.wait(record, false);
        return WAIT;
      }
      if (final) return settle(true);
      // A probe with nothing new to show waits for the next one.
      if (record.phase === 'paused' && record.outage.ongoing) this.parts.probes.later(record, { card: record.card.id, channel: plugin.id });
      return WAIT;
    }
    const operation = record.messagePhase === 'live' ? 'update' : 'send';
    switch (refusedOperations.outcome(operation, final, record.phase === 'final-in-place')) {
      case 'pause':
        record.pause();
        return WAIT;
      case 'final-undeliverable':
        return settle(false, refusedOperations.finalError(operation), true);
      case 'final-as-fresh-message':
        // The message cannot be updated any more: the final goes out as a new one (a send).
        this.parts.ladder.toFreshMessage(record);
        return this.decide(record);
      case 'call':
        break;
    }
    // A progressive update the call cap would hold back waits without taking a budget slot (and flushes again when it may go).
    const heldUntil = operation === 'update' && isProgressive(record, final, view) ? this.parts.calls.heldUntil(record) : undefined;
    if (heldUntil !== undefined) return heldBack(heldUntil);
    const { replyToMessage } = record.card;
    const call: BudgetedCall =
      record.messagePhase === 'live'
        ? { kind: 'update', target: record.card.target, message: record.message }
        : { kind: 'send', target: record.card.target, ...(replyToMessage && { replyToMessage }) };
    return { keys: this.parts.budget.keysOf(call), send: () => this.deliverMain(record, final, { payload, key, view, call }) };
  }

  /** Sends or updates the main message with a prepared render. Never rejects. */
  private async deliverMain(record: CardDeliveryRecord, final: boolean, render: MainRender): Promise<FlushOutcome> {
    const { payload, key, view } = render;
    const { plugin, budget, clock, continuations } = this.parts;
    const { transport } = plugin;
    if (final) record.finalAttemptStarted();
    const call: DeliveryCall = record.messagePhase === 'live' ? 'update' : 'send';
    const attempt = final ? record.totalFinalAttempts : record.failureStreak + 1;
    const extraCalls = extraCallsOf(record, (kind) => budget.acquire(budget.keysOf(extraCallBudget(kind, render.call, record.message))));
    const images = view.images;
    const result = await this.parts.calls.call<MessageRef | undefined>(record, call, final, attempt, async () => {
      if (call === 'update') {
        const message = record.message!;
        await transport.update({ message, payload, final, images, extraCalls });
        return undefined;
      }
      const replacing = record.messagePhase === 'gone';
      const { replyToMessage } = record.card;
      const replaces = replacing ? record.message : undefined;
      const request = { target: record.card.target as never, payload, idempotencyKey: record.sendKey, replacing, final, images, extraCalls, lateApplyWindowMs: record.lateCalls.windowMs, ...(replaces && { replaces }) };
      return transport.send(replyToMessage ? { ...request, replyToMessage } : request);
    }, call === 'update' && isProgressive(record, final, view));
    // Held back by the call cap: nothing was shown, the card's latest state goes out when the cap allows.
    if (result.ok === 'held') return heldBack(result.until);
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind !== 'auth') record.credentialsPassed();
      if (call === 'send' && failure.kind === 'transient') record.sendMayHaveSucceeded();
      if (failure.kind === 'transient') record.lateCalls.callMayLandLate(clock.now(), final);
      return this.parts.failures.mainFailed(record, final, failure, call, this.parts.budget.keysOf(render.call));
    }
    if (result.value) record.sent(result.value);
    if (final) record.finalCallAccepted();
    // Maybe an earlier try's message, unchanged: update it with this state before trusting it.
    if (record.callSucceeded()) return again();
    record.accepted(key, view.controls?.pending?.id);
    // The platform applied the final somewhere between the call's start and its answer: an older
    // call landing after the start may be on top of it.
    if (final) record.lateCalls.finalShown(result.startedAt);
    this.parts.store.put(record, view);
    if (continuations.next(record, view)) return again();
    return final ? this.parts.ladder.shown(record, clock.now()) : WAIT;
  }
}

