import type { CardLease, CardStore, LeaseRenewal } from './card-store.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';

/** Default lease of a card, ms: a process that stops renewing loses its cards this long after. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * The part of a lease a holder does not use, ms: a tenth of the lease, at most 2 s. A holder stops
 * acting this long before its lease could have expired in the store, so clock drift between
 * processes and a call already on its way cannot overlap another process that claimed the card.
 */
function leaseSafetyMarginMs(ttlMs: number): number {
  return Math.min(2000, Math.floor(ttlMs / 10));
}

/**
 * The leases one composition (its `owner` id) holds on the cards it delivers. A card gets its first
 * lease (fencing token 1) on its first store write, or the one claimed from the store when it is
 * resumed after a restart. While `renewing` and any lease is held, they are all renewed every third
 * of the lease; a card whose lease was lost (another process claimed it) is reported to the
 * callback given with {@link watch} and forgotten; a card the store lost (emptied) is written again.
 *
 * Each held lease is valid locally until the expiry of the last lease the store acknowledged (a
 * write, a claim or a renewal that succeeded), less {@link leaseSafetyMarginMs}. While the store
 * fails, renewals are retried every tenth of the lease; a card whose local validity ran out
 * ({@link expired}) may have been claimed by another process and must make no more platform calls.
 */
export class CardLeases {
  private readonly held = new Map<string, { fencingToken: number; validUntil: number; onLost?: () => void; rewrite?: () => void; onExpired?: () => void }>();
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

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
      held = { fencingToken: 1, validUntil: this.validUntil(this.clock.now() + this.ttlMs) };
      this.held.set(cardId, held);
      this.startRenewing();
    }
    return { owner: this.owner, expiresAt: this.clock.now() + this.ttlMs, fencingToken: held.fencingToken };
  }

  /** Holds `cardId` under a lease claimed from the store. */
  adopt(cardId: string, lease: CardLease): void {
    this.held.set(cardId, { fencingToken: lease.fencingToken, validUntil: this.validUntil(lease.expiresAt) });
    this.startRenewing();
  }

  /** The store acknowledged a write of `cardId` under a lease expiring at `expiresAt` (epoch ms). */
  confirmed(cardId: string, expiresAt: number): void {
    const held = this.held.get(cardId);
    if (held) held.validUntil = Math.max(held.validUntil, this.validUntil(expiresAt));
  }

  /**
   * True when this process holds `cardId` but the lease may have expired in the store: no write,
   * claim or renewal succeeded for so long that another process may have claimed the card. False
   * for a card not held (not stored, or settled) and when the composition does not renew (a store
   * only this process uses).
   */
  expired(cardId: string): boolean {
    const held = this.held.get(cardId);
    return this.renewing && held !== undefined && this.clock.now() >= held.validUntil;
  }

  /**
   * Calls `onLost` once if the lease on `cardId` is lost, `rewrite` when the store no longer holds
   * the card, and `onExpired` when a renewal finds the lease may have expired (see {@link expired}).
   */
  watch(cardId: string, onLost: () => void, rewrite: () => void, onExpired?: () => void): void {
    const held = this.held.get(cardId);
    if (!held) return;
    held.onLost = onLost;
    held.rewrite = rewrite;
    held.onExpired = onExpired;
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

  /**
   * Renews every lease held now; on a store failure (reported once per outage by the
   * composition's store wrapper) the renewal is retried after a tenth of the lease (cards keep going while their lease is valid).
   */
  async renew(): Promise<void> {
    // A store that hangs rather than fails must not keep a card acting past its lease either.
    for (const [cardId, held] of [...this.held]) {
      if (!this.expired(cardId)) continue;
      this.release(cardId);
      held.onExpired?.();
    }
    const cards = [...this.held].map(([cardId, { fencingToken }]) => ({ cardId, fencingToken }));
    if (cards.length === 0) return;
    const expiresAt = this.clock.now() + this.ttlMs;
    let renewal: LeaseRenewal;
    try {
      renewal = await this.store.renew(this.owner, cards, expiresAt);
    } catch (error) {
      this.logger.debug('card store: lease renewal failed; retrying', { error: String(error) });
      this.retrySoon();
      return;
    }
    for (const { cardId } of cards) this.confirmed(cardId, expiresAt);
    for (const cardId of renewal.lost) this.lost(cardId);
    for (const cardId of renewal.missing) this.held.get(cardId)?.rewrite?.();
  }

  private validUntil(expiresAt: number): number {
    return expiresAt - leaseSafetyMarginMs(this.ttlMs);
  }

  private retrySoon(): void {
    if (!this.renewing || this.retryTimer || !this.timer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.renew();
    }, Math.max(1, Math.floor(this.ttlMs / 10)));
    this.retryTimer.unref();
  }

  private startRenewing(): void {
    if (!this.renewing || this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  private stopRenewing(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.timer = undefined;
    this.retryTimer = undefined;
  }
}
