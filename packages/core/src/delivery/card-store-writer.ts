import type { CardView } from '../card/view.js';
import type { Logger } from '../shared/logger.js';
import type { CardDeliveryRecord } from './card-delivery-record.js';
import type { CardStore } from './card-store.js';

/**
 * Writes one channel's card delivery state to the {@link CardStore}: only when what it holds
 * changed, never awaited (delivery does not wait for the store), a failure only logged.
 */
export class CardStoreWriter {
  /** What was last written, per record. */
  private readonly stored = new WeakMap<CardDeliveryRecord, string>();

  constructor(
    private readonly cards: CardStore,
    private readonly channelId: string,
    private readonly logger: Logger,
  ) {}

  /** Writes the card's state when it changed since the last write. */
  put(record: CardDeliveryRecord, view: CardView): void {
    const parts = record.parts.messages();
    const signature = `${view.status}|${record.phase}|${record.sendKey}|${record.message?.id}|${parts.map((part) => part?.id).join(',')}`;
    if (this.stored.get(record) === signature) return;
    this.stored.set(record, signature);
    void this.cards
      .put({
        cardId: record.card.id,
        channelId: this.channelId,
        status: view.status,
        phase: record.phase,
        message: record.message,
        idempotencyKey: record.sendKey,
        continuations: parts,
      })
      .catch((error) => this.failed(error));
  }

  /** Forgets a settled card. */
  delete(record: CardDeliveryRecord): void {
    void this.cards.delete(record.card.id).catch((error) => this.failed(error));
  }

  private failed(error: unknown): void {
    this.logger.warn('card store failed', { channel: this.channelId, error: String(error) });
  }
}
