import { isTerminalStatus, type CardView } from '../../card/view.js';
import type { BudgetKey, BudgetedCall, ChannelPlugin, MessageRef } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';
import { isProgressive } from '../calls/call-cap.js';
import type { CallPipeline } from '../calls/call-pipeline.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { DeliveryCall } from '../delivery-observers.js';
import type { CardStoreWriter } from '../durable/card-store-writer.js';
import type { FailureHandling } from '../failures/failure-handling.js';
import type { FinalLadder } from '../failures/final-ladder.js';
import type { ChannelBudget } from '../rate-limits/channel-budget.js';
import { WAIT, again, heldBack, type FlushCall, type FlushOutcome } from '../schedule/flush-outcome.js';
import { nextPendingPart, renderContinuationParts, type PendingPart } from './continuation-render.js';
import { withoutUndeliveredParts } from './undelivered-parts.js';

/** What {@link ContinuationDispatch} is built from: the channel's own parts. */
export interface ContinuationDispatchParts {
  readonly plugin: ChannelPlugin;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The channel's budgets: a part's call draws from the keys of its own kind, target and message. */
  readonly budget: Pick<ChannelBudget, 'keysOf'>;
  readonly calls: CallPipeline;
  readonly failures: FailureHandling;
  readonly ladder: FinalLadder;
  readonly store: CardStoreWriter;
}

/**
 * Delivers a card's continuation parts (content that did not fit the main message): each part is
 * its own message, sent as a reply to the main one once that holds an accepted state, updated
 * when its render changes, through the channel's call pipeline and failure table. Each call takes
 * a paced slot under the plugin's budget keys for it (a send to the chat, or an update of the
 * part's message).
 */
export class ContinuationDispatch {
  /** The last cut final of each card, by the answer and kept parts it was made for (a cut renders the answer a dozen times). */
  private readonly cuts = new WeakMap<CardDeliveryRecord, { answer: string; kept: number; cut: Pick<CardView, 'answer' | 'error'> }>();

  constructor(private readonly parts: ContinuationDispatchParts) {}

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
    const cut = withoutUndeliveredParts(this.parts.plugin.renderer, view, kept, this.renderFailed(record));
    this.cuts.set(record, { answer: view.answer, kept, cut: { answer: cut.answer, error: cut.error } });
    return cut;
  }

  /** Render keys of the continuation parts of `view` (none when the renderer has none or throws). */
  keys(record: CardDeliveryRecord, view: CardView): string[] {
    return renderContinuationParts(this.parts.plugin.renderer, view, this.renderFailed(record)).map((payload) => JSON.stringify(payload));
  }

  next(record: CardDeliveryRecord, view: CardView): PendingPart | undefined {
    return nextPendingPart(this.parts.plugin.renderer, record, view, this.renderFailed(record));
  }

  private renderFailed(record: CardDeliveryRecord): (error: unknown) => void {
    return (error) => this.parts.logger.error('continuation render failed', { card: record.card.id, channel: this.parts.plugin.id, error: String(error) });
  }

  /** The call for `part`: its budget keys and the delivery to run once the slot is due. */
  prepare(record: CardDeliveryRecord, final: boolean, part: PendingPart): FlushCall {
    const existing = record.parts.message(part.index);
    const call: BudgetedCall = existing
      ? { kind: 'update', target: record.card.target, message: existing }
      : { kind: 'send', target: record.card.target, replyTo: record.message };
    const keys = this.parts.budget.keysOf(call);
    return { keys, send: () => this.deliver(record, final, part, keys) };
  }

  /** Sends or updates one continuation part, as a reply to the main message. */
  private async deliver(record: CardDeliveryRecord, final: boolean, part: PendingPart, keys: readonly BudgetKey[]): Promise<FlushOutcome> {
    const { transport } = this.parts.plugin;
    const existing = record.parts.message(part.index);
    const call: DeliveryCall = existing ? 'continuation-update' : 'continuation-send';
    const attempt = record.parts.failures(part.index) + 1;
    const result = await this.parts.calls.call<MessageRef | undefined>(record, call, final, attempt, async () => {
      if (existing) {
        await transport.update({ message: existing, payload: part.payload, final });
        return undefined;
      }
      const replyTo = record.message;
      const idempotencyKey = record.parts.idempotencyKey(part.index);
      return transport.send({ target: record.card.target as never, payload: part.payload, idempotencyKey, replacing: false, replyTo, lateApplyWindowMs: record.lateCalls.windowMs });
    }, existing !== undefined && isProgressive(record, final, part.view));
    // Held back by the call cap: the part is not taken as shown, it goes out when the cap allows.
    if (result.ok === 'held') return heldBack(result.until);
    if (!result.ok) {
      if (!existing && result.failure.kind === 'transient') record.parts.sendMayHaveSucceeded(part.index);
      return this.parts.failures.partFailed(record, final, part.index, result.failure, keys);
    }
    const message = result.value;
    // Maybe an earlier try's part, unchanged: update it before trusting it.
    if (message && !record.parts.sent(part.index, message)) return again();
    record.callSucceeded();
    record.parts.accepted(part.index, part.key);
    this.parts.store.put(record, part.view);
    if (this.next(record, part.view)) return again();
    return final ? this.parts.ladder.shown(record, this.parts.clock.now()) : WAIT;
  }
}
