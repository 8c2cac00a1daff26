import { createHash } from 'node:crypto';
import type { CardView } from '../../card/view.js';
import type { Logger } from '../../shared/logger.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { CardLeases } from './card-leases.js';
import type { CardStore, StoredCard } from './card-store.js';

/**
 * Writes one channel's card delivery state to the {@link CardStore} under the card's lease: only
 * when what it holds changed, never awaited (delivery does not wait for the store), a failure only
 * logged at debug level (the composition reports the store's outage once). A write refused by the fencing token means another
 * process took the card over: `fenced` is told, and the lease forgotten.
 */
export class CardStoreWriter {
  /** What was last written, per record: its signature and the card. */
  private readonly stored = new WeakMap<CardDeliveryRecord, { signature: string; card: StoredCard }>();

  constructor(
    private readonly cards: CardStore,
    private readonly leases: CardLeases,
    private readonly channelId: string,
    private readonly logger: Logger,
    /** Another process took the card over (`expired`: may have, as the store was unreachable for longer than the lease). */
    private readonly fenced: (record: CardDeliveryRecord, expired?: boolean) => void,
  ) {}

  /** Writes the card's state when it changed since the last write. */
  put(record: CardDeliveryRecord, view: CardView): void {
    const parts = record.parts.messages();
    const accepted = record.acceptedContent;
    const contentHash = accepted === undefined ? undefined : createHash('sha1').update(accepted).digest('hex');
    const tools = view.tools.flatMap((tool) =>
      tool.state === 'running' && tool.startedAt !== undefined ? [{ callId: tool.callId, name: tool.name, detail: tool.detail, startedAt: tool.startedAt }] : [],
    );
    const signature = `${view.status}|${record.phase}|${record.sendKey}|${record.message?.id}|${parts.map((part) => part?.id).join(',')}|${contentHash}|${tools.map((tool) => tool.callId).join(',')}`;
    if (this.stored.get(record)?.signature === signature) return;
    const cardId = record.card.id;
    const card: StoredCard = {
      cardId,
      runId: record.card.runId,
      channelId: this.channelId,
      target: record.card.target,
      status: view.status,
      phase: record.phase,
      message: record.message,
      idempotencyKey: record.sendKey,
      continuations: parts,
      title: view.title,
      locale: view.locale,
      startedAt: view.startedAt,
      tools,
      contentHash,
      lease: this.leases.leaseOf(cardId),
    };
    this.stored.set(record, { signature, card });
    this.leases.watch(
      cardId,
      () => this.fenced(record),
      () => this.rewrite(record),
      () => this.fenced(record, true),
    );
    this.write(card);
  }

  /** Writes the card last written for `record` again, under a fresh lease (the store lost it). */
  private rewrite(record: CardDeliveryRecord): void {
    const last = this.stored.get(record);
    if (last) this.write({ ...last.card, lease: this.leases.leaseOf(last.card.cardId) });
  }

  private write(card: StoredCard): void {
    const { cardId } = card;
    void this.cards.put(card).then(
      (written) => {
        if (written) this.leases.confirmed(cardId, card.lease.expiresAt);
        else this.leases.lost(cardId);
      },
      (error) => this.failed(error),
    );
  }

  /** Forgets a settled card (and its lease). */
  delete(record: CardDeliveryRecord): void {
    const cardId = record.card.id;
    const { fencingToken } = this.leases.leaseOf(cardId);
    this.leases.release(cardId);
    void this.cards.delete(cardId, fencingToken).catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    this.logger.debug('card store write failed; delivery goes on without it', { channel: this.channelId, error: String(error) });
  }
}
