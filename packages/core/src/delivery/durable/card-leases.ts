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
 * ({@link expired}) may have been claimed by another process and must make no platform call until
 * the store answers again. The card stays held meanwhile (fail safe, not fail stop): the next
 * renewal the store accepts under the card's unchanged fencing token proves that nobody claimed it,
 * and the card is `regained` (its holder delivers again); a moved token means another process took
 * it over, and the card is `lost`.
 */
export class CardLeases {
  private readonly held = new Map<string, { fencingToken: number; validUntil: number; stored?: boolean; onLost?: () => void; rewrite?: () => void; onRegained?: () => void }>();
  /** Cards whose final settled but whose deletion from the store did not succeed yet, with their fencing token. */
  private readonly settled = new Map<string, number>();
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
    this.held.set(cardId, { fencingToken: lease.fencingToken, validUntil: this.validUntil(lease.expiresAt), stored: true });
    this.startRenewing();
  }

  /**
   * The store acknowledged a write or renewal of `cardId` under a lease expiring at `expiresAt`
   * (epoch ms). A card whose lease had run out locally is regained: told to its `onRegained`.
   */
  confirmed(cardId: string, expiresAt: number): void {
    const held = this.held.get(cardId);
    if (!held) return;
    const wasExpired = this.expired(cardId);
    held.stored = true;
    held.validUntil = Math.max(held.validUntil, this.validUntil(expiresAt));
    if (wasExpired && !this.expired(cardId)) held.onRegained?.();
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
   * the card, and `onRegained` when the store accepts the lease again after it ran out locally
   * (see {@link expired}).
   */
  watch(cardId: string, onLost: () => void, rewrite: () => void, onRegained?: () => void): void {
    const held = this.held.get(cardId);
    if (!held) return;
    held.onLost = onLost;
    held.rewrite = rewrite;
    held.onRegained = onRegained;
  }

  /** True while this process holds `cardId` (written or claimed, final not settled). */
  holds(cardId: string): boolean {
    return this.held.has(cardId);
  }

  /** The store refused a write of `cardId`: another process holds it now. */
  lost(cardId: string): void {
    const held = this.held.get(cardId);
    this.release(cardId);
    held?.onLost?.();
  }

  /** Forgets `cardId` (its final settled, or it was lost). */
  release(cardId: string): void {
    this.held.delete(cardId);
    if (this.held.size === 0) this.stopRenewing();
  }

  /**
   * The final of `cardId` settled and its deletion from the store is under way with `fencingToken`:
   * until {@link deleted}, this process's orphan sweep deletes it again instead of taking it over.
   */
  settling(cardId: string, fencingToken: number): void {
    this.release(cardId);
    this.settled.set(cardId, fencingToken);
  }

  /** The store deleted `cardId` (or another process holds it now). */
  deleted(cardId: string): void {
    this.settled.delete(cardId);
  }

  /** The fencing token of a settled card whose deletion did not succeed yet, if `cardId` is one. */
  settledToken(cardId: string): number | undefined {
    return this.settled.get(cardId);
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
   * Renews every lease held now, those that ran out locally too (the store decides by the fencing
   * token whether nobody claimed them meanwhile); on a store failure (reported once per outage by
   * the composition's store wrapper) the renewal is retried after a tenth of the lease (cards keep
   * going while their lease is valid, and wait for the store once it is not).
   */
  async renew(): Promise<void> {
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
    const refused = new Set([...renewal.lost, ...renewal.missing]);
    for (const cardId of renewal.lost) this.lost(cardId);
    for (const { cardId } of cards) if (!refused.has(cardId)) this.confirmed(cardId, expiresAt);
    // A card gone from the store while its lease was valid (or never stored): the store lost it
    // (e.g. Redis restarted empty), nobody can have claimed it: written again. Gone after its
    // stored lease ran out, it may have been taken over, finished and deleted by another process: lost.
    for (const cardId of renewal.missing) {
      if (this.expired(cardId) && this.held.get(cardId)?.stored) this.lost(cardId);
      else this.held.get(cardId)?.rewrite?.();
    }
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
