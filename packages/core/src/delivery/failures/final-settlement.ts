import type { CardView } from '../../card/view.js';
import type { ChannelPlugin } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import type { CallPipeline } from '../calls/call-pipeline.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { ContinuationDispatch } from '../continuations/continuation-dispatch.js';
import type { CardStoreWriter } from '../durable/card-store-writer.js';
import type { LeaseWaits } from '../durable/lease-waits.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import type { FailureHandling } from './failure-handling.js';
import type { FinalLadder } from './final-ladder.js';
import { closeMovedMessage } from './moved-notice.js';
import type { RefusedOperations } from './refused-operations.js';

/** What {@link FinalSettlement} is built from: the channel's own parts. */
export interface FinalSettlementParts {
  readonly plugin: ChannelPlugin;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly budget: Pick<ChannelBudget, 'acquire' | 'keysOf'>;
  readonly store: CardStoreWriter;
  readonly parts: Pick<ContinuationDispatch, 'keys'>;
  readonly calls: CallPipeline;
  readonly failures: Pick<FailureHandling, 'refreshCredentials'>;
  readonly ladder: FinalLadder;
  /** A card whose lease may have expired makes no more platform calls (its moved message is not closed). */
  readonly leaseWaits: Pick<LeaseWaits, 'valid'>;
  /** While the channel's updates are refused for a missing scope, a given-up message cannot be closed. */
  readonly refusedOperations: Pick<RefusedOperations, 'refusal'>;
}

/** The final's error of a card whose lease may have expired while the card store was unreachable. */
export const LEASE_EXPIRED_ERROR = 'lease may have expired: the card store was unreachable for longer than the lease, another process may have taken this card over';

/**
 * How a card's final is reported once its delivery settled: once, naming missing continuation
 * parts, after the message given up for a fresh one is closed; and how a card another process took
 * over (a lost lease) is fenced off with a final that says so.
 */
export class FinalSettlement {
  /** Cards another process took over (their lease was lost): this process sends nothing more for them. */
  private readonly fenced = new WeakSet<CardDeliveryRecord>();

  /** Closes of given-up messages under way (each reports its card's final when it ends). */
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly deps: FinalSettlementParts) {}

  /** True once {@link fence} ran for `record`. */
  isFenced(record: CardDeliveryRecord): boolean {
    return this.fenced.has(record);
  }

  /**
   * Another process claimed the card (its lease expired while this one stalled): this process stops
   * updating it, and its final reports that, so two processes never update one card.
   */
  fence(record: CardDeliveryRecord, error = 'lease lost: another process took this card over'): void {
    if (this.fenced.has(record)) return;
    this.fenced.add(record);
    record.pause();
    this.deps.logger.error(error, { card: record.card.id, channel: this.deps.plugin.id });
    const status = record.card.view().status;
    record.card.onFinal({ ok: false, status, message: record.message, freshMessage: false, attempts: record.totalFinalAttempts, error, continuations: { delivered: 0, total: 0 } });
  }

  /**
   * The final settled: report it once, close a message given up for a fresh one, forget the card.
   * `causeLogged`: the failure's cause was logged already (a channel stop), so no second line.
   */
  settle(record: CardDeliveryRecord, ok: boolean, error?: string, causeLogged = false): void {
    const { logger, plugin, store, parts } = this.deps;
    const view = record.card.view();
    const mayCloseMoved = this.deps.leaseWaits.valid(record) && this.deps.refusedOperations.refusal('update') === undefined;
    const keys = parts.keys(record, view);
    const continuations = { delivered: ok ? record.parts.deliveredCount(keys) : 0, total: keys.length };
    const missing = ok ? record.parts.missingParts(keys) : [];
    const report = record.settle(ok);
    const fields = { card: record.card.id, channel: plugin.id };
    if (!ok && !causeLogged) logger.error('final undeliverable: every retry failed', { ...fields, attempts: report.attempts, error });
    else if (missing.length > 0) {
      logger.error('final continuation parts undeliverable: every retry failed', { ...fields, parts: missing, missing: missing.length, total: keys.length });
    }
    store.delete(record);
    // A final whose continuation parts are missing did not reach the chat whole: not ok, naming them.
    const partsError = missing.length > 0 ? `continuation part${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${keys.length + 1} undeliverable` : undefined;
    const result = { ...report, ok: ok && missing.length === 0, status: view.status, error: error ?? partsError, continuations };
    // The message given up for a fresh one is closed like a final before the final is reported,
    // also when the final failed but the fresh message may show it: it exists and its last update
    // failed, or a send of it timed out (the platform may have created it, maybe later).
    if (record.movedFrom && (ok || record.messageMayExist) && mayCloseMoved) {
      const closed = this.closeMoved(record, view, ok).then(() => {
        this.closing.delete(closed);
        record.card.onFinal(result);
      });
      this.closing.add(closed);
    } else record.card.onFinal(result);
  }

  /**
   * Shutdown: resolves once every close of a given-up message has ended and its final was reported.
   * A close is part of its final (cut short, the old message could keep showing an older state or
   * the final twice); each is bounded by its retries and the late-apply window.
   */
  async close(): Promise<void> {
    await Promise.all([...this.closing]);
  }

  /** Closes the message the final moved away from: retried like a final, again after its late calls (see {@link closeMovedMessage}). */
  private closeMoved(record: CardDeliveryRecord, view: CardView, freshCardExists: boolean): Promise<void> {
    const { plugin, budget, clock, logger, calls, failures, ladder } = this.deps;
    const message = record.movedFrom!;
    return closeMovedMessage({
      message,
      finalView: view,
      renderer: plugin.renderer,
      transport: plugin.transport,
      acquire: () => budget.acquire(budget.keysOf({ kind: 'update', target: record.card.target, message })),
      platformCall: (call) => calls.through(call, { kind: 'moved-notice' }),
      logger,
      clock,
      retryDelaysMs: ladder.movedMessageCloseDelaysMs,
      lateCallsUntil: record.movedFromLateUntil,
      freshCardExists,
      ...(plugin.transport.refreshAuth && { refreshCredentials: () => failures.refreshCredentials({ channel: plugin.id }) }),
      report: (startedAt, attempt, failure) => calls.observe(record, 'moved-notice', startedAt, true, attempt, failure),
    });
  }
}
