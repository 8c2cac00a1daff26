import { isTerminalStatus, type CardView } from '../../card/view.js';
import type { BudgetedCall, CallFailure, ChannelPlugin, MessageRef } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import type { CardChange, CardDeliveryRecord } from '../card-delivery-record.js';
import type { CardStoreWriter } from '../durable/card-store-writer.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import type { ChannelStop } from '../failures/channel-stop.js';
import { nextPendingPart, renderContinuationParts, type PendingPart } from './continuation-render.js';
import { withoutUndeliveredParts } from './undelivered-parts.js';
import type { DeliveryCall } from '../delivery-observers.js';
import { backoffMs, failureAction, type FailureAction } from '../failures/delivery-policy.js';
import type { PreparedCall } from '../schedule/flush-calls.js';
import type { RetrySettings } from '../failures/retry-settings.js';

/** What {@link ContinuationDispatch} uses of its channel's dispatcher: the shared counters, failure table and requeue. */
export interface ContinuationHost {
  readonly plugin: ChannelPlugin;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: RetrySettings;
  /** The channel's budgets: a part's call draws from the keys of its own kind, target and message. */
  readonly budget: Pick<ChannelBudget, 'keysOf'>;
  readonly store: CardStoreWriter;
  readonly stop: ChannelStop;
  readonly counters: { sent: number; updated: number; failed: number };
  classify(error: unknown): CallFailure;
  /** Makes one platform call: timed for the budget, given up after the channel's call timeout. */
  platformCall<T>(call: () => Promise<T>): Promise<T>;
  observe(record: CardDeliveryRecord, call: DeliveryCall, startedAt: number, final: boolean, attempt: number, failure?: CallFailure): void;
  applies(action: FailureAction, credentialsRefreshed: boolean, richRender: boolean): boolean;
  logFailure(action: FailureAction, message: string, fields: Record<string, unknown>): void;
  waitAfter(failure: CallFailure, backOff: () => number): number;
  refreshCredentials(fields: Record<string, unknown>): Promise<void>;
  requeue(record: CardDeliveryRecord, change: CardChange, notBefore?: number): void;
  finish(record: CardDeliveryRecord, ok: boolean): void;
  finishAfterLateCalls(record: CardDeliveryRecord, change: CardChange): void;
}

/**
 * Delivers a card's continuation parts (content that did not fit the main message): each part is
 * its own message, sent as a reply to the main one once that holds an accepted state, updated
 * when its render changes, through the channel's failure table. Each call takes a paced slot
 * under the plugin's budget keys for it (a send to the chat, or an update of the part's message).
 */
export class ContinuationDispatch {
  /** The last cut final of each card, by the answer and kept parts it was made for (a cut renders the answer a dozen times). */
  private readonly cuts = new WeakMap<CardDeliveryRecord, { answer: string; kept: number; cut: Pick<CardView, 'answer' | 'error'> }>();

  constructor(private readonly host: ContinuationHost) {}

  /**
   * The view the main message shows: `view` itself, except for a final whose continuation parts
   * were given up, which is cut to the parts the chat has and says what was not delivered (see
   * {@link withoutUndeliveredParts}), so the card never points at follow-up messages that do not exist.
   */
  decorate(record: CardDeliveryRecord, view: CardView): CardView {
    if (!isTerminalStatus(view.status)) return view;
    const kept = record.parts.keptParts();
    if (kept === undefined) return view;
    const known = this.cuts.get(record);
    if (known && known.answer === view.answer && known.kept === kept) return { ...view, ...known.cut };
    const cut = withoutUndeliveredParts(this.host.plugin.renderer, view, kept, this.renderFailed(record));
    this.cuts.set(record, { answer: view.answer, kept, cut: { answer: cut.answer, error: cut.error } });
    return cut;
  }

  /** Render keys of the continuation parts of `view` (none when the renderer has none or throws). */
  keys(record: CardDeliveryRecord, view: CardView): string[] {
    return renderContinuationParts(this.host.plugin.renderer, view, this.renderFailed(record)).map((payload) => JSON.stringify(payload));
  }

  next(record: CardDeliveryRecord, view: CardView): PendingPart | undefined {
    return nextPendingPart(this.host.plugin.renderer, record, view, this.renderFailed(record));
  }

  private renderFailed(record: CardDeliveryRecord): (error: unknown) => void {
    return (error) => this.host.logger.error('continuation render failed', { card: record.card.id, channel: this.host.plugin.id, error: String(error) });
  }

  /** The call for `part`: its budget keys and the delivery to run once the slot is due. */
  prepare(record: CardDeliveryRecord, change: CardChange, final: boolean, part: PendingPart): PreparedCall {
    const existing = record.parts.message(part.index);
    const call: BudgetedCall = existing
      ? { kind: 'update', target: record.card.target, message: existing }
      : { kind: 'send', target: record.card.target, replyTo: record.message };
    return { keys: this.host.budget.keysOf(call), send: () => this.deliver(record, change, final, part) };
  }

  /** Sends or updates one continuation part, as a reply to the main message. */
  private async deliver(record: CardDeliveryRecord, change: CardChange, final: boolean, part: PendingPart): Promise<void> {
    const { transport } = this.host.plugin;
    const existing = record.parts.message(part.index);
    const call: DeliveryCall = existing ? 'continuation-update' : 'continuation-send';
    const attempt = record.parts.failures(part.index) + 1;
    const startedAt = this.host.clock.now();
    let message: MessageRef | undefined;
    try {
      if (existing) {
        await this.host.platformCall(() => transport.update({ message: existing, payload: part.payload, final }));
      } else {
        const replyTo = record.message;
        const idempotencyKey = record.parts.idempotencyKey(part.index);
        message = await this.host.platformCall(() =>
          transport.send({
            target: record.card.target as never,
            payload: part.payload,
            idempotencyKey,
            replacing: false,
            replyTo,
          }),
        );
      }
    } catch (error) {
      const failure = this.host.classify(error);
      this.host.observe(record, call, startedAt, final, attempt, failure);
      if (!existing && failure.kind === 'transient') record.parts.sendMayHaveSucceeded(part.index);
      return this.handleFailure(record, change, final, part.index, failure);
    }
    this.host.counters[existing ? 'updated' : 'sent'] += 1;
    this.host.stop.lift();
    this.host.observe(record, call, startedAt, final, attempt);
    // Maybe an earlier try's part, unchanged: update it before trusting it.
    if (message && !record.parts.sent(part.index, message)) return this.host.requeue(record, change);
    record.callSucceeded();
    record.parts.accepted(part.index, part.key);
    this.host.store.put(record, part.view);
    if (this.next(record, part.view)) this.host.requeue(record, change);
    else if (final) this.host.finishAfterLateCalls(record, change);
  }

  /**
   * The failure table for a continuation part: like the main message, except that a part has no
   * plain-text render (a refused part backs off) and a gone part is sent again under a new key. A
   * final's part gets one try plus one per final retry delay, then is given up (and reported).
   */
  private async handleFailure(record: CardDeliveryRecord, change: CardChange, final: boolean, index: number, failure: CallFailure): Promise<void> {
    const now = this.host.clock.now();
    const fields = { card: record.card.id, channel: this.host.plugin.id, part: index + 2, kind: failure.kind, detail: failure.detail };
    this.host.counters.failed += 1;
    if (failure.kind !== 'auth') record.credentialsPassed();
    const action = failureAction(failure.kind, (candidate) => this.host.applies(candidate, record.credentialsRefreshed, false));
    this.host.logFailure(action, 'continuation part failed', fields);
    if (action === 'refresh-credentials') {
      record.tryCredentialRefresh();
      await this.host.refreshCredentials(fields);
      return this.host.requeue(record, change);
    }
    if (action === 'replace-message') {
      record.parts.replace(index);
      return this.host.requeue(record, change);
    }
    if (action === 'stop-operation' && final && !record.parts.message(index)) {
      // The part's send is refused, but the main message may still be updated: it says what is missing.
      record.parts.giveUp(index);
      return this.host.requeue(record, change);
    }
    if (action === 'stop-channel' || action === 'stop-card' || action === 'stop-operation') {
      // The main message holds the final already; the missing parts are reported by `finish`.
      if (action === 'stop-channel') this.host.stop.stop(failure, fields);
      if (final) this.host.finish(record, true);
      return;
    }
    let failures = 0;
    const wait = this.host.waitAfter(failure, () => {
      failures = record.parts.failed(index);
      return backoffMs(this.host.retry.updateRetryDelaysMs, failures);
    });
    if (failures === 0) failures = record.parts.failed(index);
    if (final) {
      const delays = this.host.retry.finalRetryDelaysMs;
      if (failures <= delays.length) return this.host.requeue(record, change, now + Math.max(wait, delays[failures - 1]!));
      // The main message is cut before this part and says what was not delivered (see `decorate`).
      record.parts.giveUp(index);
      return this.host.requeue(record, change);
    }
    // Progressive: after too many failures the part waits for the card's next change.
    if (failures < this.host.retry.maxConsecutiveFailures) this.host.requeue(record, change, now + wait);
  }
}
