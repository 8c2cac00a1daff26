import type { CardLease, CardStore, LeaseRenewal } from './card-store.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';

/** Default lease of a card, ms: a process that stops renewing loses its cards this long after. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * The leases one composition (its `owner` id) holds on the cards it delivers. A card gets its first
 * lease (fencing token 1) on its first store write, or the one claimed from the store when it is
 * resumed after a restart. While `renewing` and any lease is held, they are all renewed every third
 * of the lease; a card whose lease was lost (another process claimed it) is reported to the
 * callback given with {@link watch} and forgotten; a card the store lost (emptied) is written again.
 */
export class CardLeases {
  private readonly held = new Map<string, { fencingToken: number; onLost?: () => void; rewrite?: () => void }>();
  private timer: NodeJS.Timeout | undefined;
  private renewFailing = false;

  constructor(
    private readonly store: CardStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly owner: string,
    readonly ttlMs: number,
    private readonly renewing: boolean,
  ) {}

  /** The lease a write of `cardId` carries now (a first one for a card not held yet). */
  leaseOf(cardId: string): CardLease {
    let held = this.held.get(cardId);
    if (!held) {
      held = { fencingToken: 1 };
      this.held.set(cardId, held);
      this.startRenewing();
    }
    return { owner: this.owner, expiresAt: this.clock.now() + this.ttlMs, fencingToken: held.fencingToken };
  }

  /** Holds `cardId` under a lease claimed from the store. */
  adopt(cardId: string, lease: CardLease): void {
    this.held.set(cardId, { fencingToken: lease.fencingToken });
    this.startRenewing();
  }

  /** Calls `onLost` once if the lease on `cardId` is lost, and `rewrite` when the store no longer holds the card. */
  watch(cardId: string, onLost: () => void, rewrite: () => void): void {
    const held = this.held.get(cardId);
    if (!held) return;
    held.onLost = onLost;
    held.rewrite = rewrite;
  }

  /** The store refused a write of `cardId`: another process holds it now. */
  lost(cardId: string): void {
    const held = this.held.get(cardId);
    this.release(cardId);
    held?.onLost?.();
  }

  /** Forgets `cardId` (its final settled). */
  release(cardId: string): void {
    this.held.delete(cardId);
    if (this.held.size === 0) this.stopRenewing();
  }

  /** Cards held now. */
  get size(): number {
    return this.held.size;
  }

  /** Stops renewing (the composition shut down). */
  dispose(): void {
    this.stopRenewing();
  }

  /** Renews every lease held now; a store failure is logged once until a renewal succeeds again. */
  async renew(): Promise<void> {
    const cards = [...this.held].map(([cardId, { fencingToken }]) => ({ cardId, fencingToken }));
    if (cards.length === 0) return;
    let renewal: LeaseRenewal;
    try {
      renewal = await this.store.renew(this.owner, cards, this.clock.now() + this.ttlMs);
    } catch (error) {
      if (!this.renewFailing) this.logger.warn('card store: lease renewal failed; cards keep going and renew when the store is back', { error: String(error) });
      this.renewFailing = true;
      return;
    }
    this.renewFailing = false;
    for (const cardId of renewal.lost) this.lost(cardId);
    for (const cardId of renewal.missing) this.held.get(cardId)?.rewrite?.();
  }

  private startRenewing(): void {
    if (!this.renewing || this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  private stopRenewing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
