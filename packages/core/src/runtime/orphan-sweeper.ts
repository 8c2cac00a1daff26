import type { CardLease, CardStore, StoredCard } from '../delivery/durable/card-store.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';

/** Default wait after a card's lease expired before it is ended as interrupted, ms. */
export const DEFAULT_ORPHAN_GRACE_MS = 60_000;

/** What an {@link OrphanSweeper} works with. */
export interface OrphanSweeperDeps {
  readonly store: CardStore;
  /** Wall time (leases are in wall time). */
  readonly clock: Clock;
  readonly logger: Logger;
  /** This composition's owner id. */
  readonly owner: string;
  readonly leaseTtlMs: number;
  readonly graceMs: number;
  /** Whether this composition has the card's channel. */
  hasChannel(channelId: string): boolean;
  /** Whether this composition holds the card (delivers it now). */
  holds(cardId: string): boolean;
  /** The fencing token of a card whose final this composition settled but could not delete from the store yet. */
  settledToken(cardId: string): number | undefined;
  /** The store deleted a settled card. */
  deleted(cardId: string): void;
  /** Claims a card for this composition, or undefined when it is not free (see `CardStore.claim`). */
  claim(card: StoredCard): Promise<CardLease | undefined>;
  /** Ends a claimed orphan as interrupted. */
  end(card: StoredCard, lease: CardLease): void;
}

/**
 * Finds cards whose owner stopped renewing its lease (a killed or crashed process, or this one
 * when it lost track of a card) and, once the lease expired more than `graceMs` ago and nobody
 * resumed them, ends them (with their stored final, else as interrupted). Deletes the cards this
 * process settled while the store was unreachable. Sweeps
 * every half grace (at least every second, at most every lease), the first time one such interval
 * after start, so that the product's `resume` calls at start-up come first.
 */
export class OrphanSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly deps: OrphanSweeperDeps) {}

  start(): void {
    const every = Math.min(this.deps.leaseTtlMs, Math.max(1000, Math.floor(this.deps.graceMs / 2)));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  /** One pass (one at a time); a store failure is logged and the next pass tries again. */
  sweep(): Promise<void> {
    this.sweeping ??= this.pass().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async pass(): Promise<void> {
    const { store, clock, owner, graceMs } = this.deps;
    let cards: StoredCard[];
    try {
      cards = await store.list();
    } catch (error) {
      // The store's outage is reported once by the composition; the next pass tries again.
      this.deps.logger.debug('card store: could not look for interrupted cards', { error: String(error) });
      return;
    }
    for (const card of cards) {
      if (!this.deps.hasChannel(card.channelId)) continue;
      if (card.lease.owner === owner) {
        // A card of this process: delivered now, or settled (its deletion failed while the store
        // was away: deleted now). Else it was forgotten here: taken over like another's.
        if (this.deps.holds(card.cardId)) continue;
        const token = this.deps.settledToken(card.cardId);
        if (token !== undefined) {
          await store.delete(card.cardId, token).then(() => this.deps.deleted(card.cardId), () => undefined);
          continue;
        }
      }
      if (clock.now() < card.lease.expiresAt + graceMs) continue;
      try {
        const lease = await this.deps.claim(card);
        if (lease) this.deps.end(card, lease);
      } catch (error) {
        this.deps.logger.warn('card store: could not claim an interrupted card', { card: card.cardId, error: String(error) });
      }
    }
  }
}
