import { isTerminalStatus } from '../card/view.js';
import type { CardLeases } from '../delivery/durable/card-leases.js';
import type { CardLease, CardStore, StoredCard } from '../delivery/durable/card-store.js';
import type { ChannelRegistry } from '../delivery/channel-registry.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { sleepMs } from '../shared/timer-duration.js';
import type { CardSessions } from './card-sessions.js';
import { OrphanSweeper } from './orphan-sweeper.js';
import type { Requester } from '../plugin/contract.js';
import type { ProgressCard } from './progress-card.js';
import type { StoredChannel } from './app-pools.js';
import { INTERRUPTED_REASONS } from './shutdown.js';

/** What a {@link Takeover} works with (resolved by the composition root). */
export interface TakeoverDeps {
  /** The card store as delivery uses it. */
  readonly store: CardStore;
  readonly leases: CardLeases;
  readonly registry: ChannelRegistry;
  readonly sessions: CardSessions;
  /** Delivery time (leases are in wall time). */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly leaseTtlMs: number;
  readonly orphanGraceMs: number;
  /** True when the cards live in a store shared with other processes: orphans are swept. */
  readonly durable: boolean;
  /** True once the composition was shut down. */
  readonly isShutDown: () => boolean;
  /**
   * Settles once clicks other processes forward to this composition reach it
   * (`InteractionRouter.relayListening`): a card is claimed only after it, so that a click on a
   * resumed card's buttons is never forwarded to an owner that does not listen yet.
   */
  readonly relayListening: Promise<void>;
  /**
   * The registered channel a card stored under `channelId` goes to (an app pool's app after the
   * deployment moved the channel into a pool or dropped an app: `AppPools.storedChannel`);
   * undefined when none can take it here. `appIdentity`: the app that sent the card (`StoredCard.appIdentity`).
   */
  readonly storedChannel: (channelId: string, target: unknown, appIdentity?: string) => StoredChannel | undefined;
}

/**
 * Cards a stopped process left in the card store: claims them (a lease under this composition's
 * owner id), continues one on `resume(runId)`, and (with a shared store) sweeps those nobody
 * resumed within the grace, ending them as interrupted.
 */
export class Takeover {
  /** Cards this composition claimed from the store (resumed or being ended), until their final. */
  private readonly claimed = new Set<string>();
  private readonly sweeper: OrphanSweeper | undefined;

  constructor(private readonly deps: TakeoverDeps) {
    const { store, clock, logger, leases, leaseTtlMs, orphanGraceMs } = deps;
    this.sweeper = deps.durable
      ? new OrphanSweeper({
          store,
          clock,
          logger,
          owner: leases.owner,
          leaseTtlMs,
          graceMs: orphanGraceMs,
          hasChannel: (channelId) => deps.storedChannel(channelId, undefined) !== undefined,
          holds: (cardId) => leases.holds(cardId) || this.claimed.has(cardId),
          settledToken: (cardId) => leases.settledToken(cardId),
          deleted: (cardId) => leases.deleted(cardId),
          claim: (card) => this.claim(card),
          end: (card, lease) => this.endInterrupted(card, lease),
        })
      : undefined;
    this.sweeper?.start();
  }

  /** Claims a stored card for this composition, or undefined when it is not free (see `CardStore.claim`). */
  async claim(card: StoredCard): Promise<CardLease | undefined> {
    const { store, leases, clock, leaseTtlMs } = this.deps;
    if (this.claimed.has(card.cardId)) return undefined;
    this.claimed.add(card.cardId);
    const now = clock.now();
    const lease = await store.claim(card.cardId, leases.owner, now + leaseTtlMs, now).catch((error: unknown) => {
      this.claimed.delete(card.cardId);
      throw error;
    });
    if (!lease) this.claimed.delete(card.cardId);
    else leases.adopt(card.cardId, lease);
    return lease;
  }

  /** See `ProgressCards.resume`. */
  async resume(runId: string, requester: Requester | undefined): Promise<ProgressCard> {
    const { store, registry, sessions, clock } = this.deps;
    const named = `resume(${JSON.stringify(runId)})`;
    if (typeof runId !== 'string' || runId === '') throw new Error(`resume(runId): runId must be a non-empty string, got ${JSON.stringify(runId)}`);
    if (this.deps.isShutDown()) throw new Error(`${named}: this ProgressCards was shut down`);
    const runs = (await store.list()).filter((card) => card.runId === runId);
    const stored = runs.find((card) => !isTerminalStatus(card.status)) ?? runs[0];
    if (!stored) throw new Error(`${named}: no open card of this run in the card store`);
    if (!this.deps.storedChannel(stored.channelId, stored.target, stored.appIdentity)) {
      throw new Error(`${named}: the card was stored by channel ${JSON.stringify(stored.channelId)}, which this composition does not have (registered: ${registry.channelIds.join(', ') || '(none)'}); resume it where that channel is configured`);
    }
    if (this.claimed.has(stored.cardId) || sessions.hasRun(runId)) throw new Error(`${named}: the run is already open in this composition`);
    await this.deps.relayListening;
    let lease = await this.claim(stored);
    if (!lease) {
      // Its owner may have stopped without our knowing yet: wait for the lease to run out once.
      await sleepMs(stored.lease.expiresAt - clock.now() + 1);
      const again = await store.get(stored.cardId);
      if (!again) throw new Error(`${named}: the card was ended meanwhile`);
      if (this.claimed.has(again.cardId)) throw new Error(`${named}: its grace passed, the card is being ended as interrupted`);
      lease = await this.claim(again);
      if (!lease) throw new Error(`${named}: a live process holds the card (owner ${again.lease.owner}, lease renewed until ${new Date(again.lease.expiresAt).toISOString()})`);
    }
    const current = (await store.get(stored.cardId)) ?? stored;
    const card = this.openClaimed(current, { requester }, true);
    // The run had ended (its owner died during the final's retries): its final is delivered.
    if (current.final) endAsStored(card, current);
    return card;
  }

  /**
   * Ends a card whose process stopped: with the final stored with it (the run had ended, its
   * final was being delivered), else the stored message shows it was interrupted (best effort).
   */
  endInterrupted(original: StoredCard, lease: CardLease): void {
    const { store, leases, logger } = this.deps;
    const shutDown = this.deps.isShutDown();
    const stored = this.relocated(original, 'ended');
    if (!shutDown && stored.final && isTerminalStatus(stored.status)) {
      logger.warn('delivering the final of a card its stopped process left open', { card: stored.cardId, run: stored.runId, channel: stored.channelId });
      endAsStored(this.openClaimed(stored, {}, false), stored);
      return;
    }
    if (shutDown || !stored.message || isTerminalStatus(stored.status)) {
      this.claimed.delete(stored.cardId);
      leases.release(stored.cardId);
      if (!shutDown) void store.delete(stored.cardId, lease.fencingToken).catch(() => undefined);
      return;
    }
    logger.warn('ending a card its stopped process left open', { card: stored.cardId, run: stored.runId, channel: stored.channelId });
    this.openClaimed(stored, {}, false).cancel(INTERRUPTED_REASONS[stored.locale] ?? INTERRUPTED_REASONS.en);
  }

  /** Stops the orphan sweep. */
  dispose(): void {
    this.sweeper?.dispose();
  }

  private openClaimed(original: StoredCard, options: { requester?: Requester }, wrap: boolean): ProgressCard {
    const stored = this.relocated(original, 'continued');
    return this.deps.sessions.open(stored.channelId, stored.target, options, stored, wrap, () => this.claimed.delete(stored.cardId));
  }

  /**
   * `stored` as the channel that takes it now delivers it (see {@link TakeoverDeps.storedChannel}):
   * unchanged on its own channel; else on the app that has it now, without its message when that
   * app may not edit it (the card goes on as a fresh message), with a warning naming the card, the
   * app it was stored under, where it goes and the fix. `outcome`: what happens to the card.
   */
  private relocated(stored: StoredCard, outcome: 'continued' | 'ended'): StoredCard {
    const route = this.deps.storedChannel(stored.channelId, stored.target, stored.appIdentity);
    if (!route || (route.channelId === stored.channelId && route.keepsMessage)) return stored;
    const identities = stored.appIdentity === undefined ? {} : { storedApp: stored.appIdentity, ...(route.appIdentity !== undefined && { app: route.appIdentity }) };
    const fields = { card: stored.cardId, run: stored.runId, storedChannel: stored.channelId, channel: route.channelId, ...identities };
    if (route.keepsMessage && stored.appIdentity !== undefined) {
      this.deps.logger.warn(
        `card stored under app ${JSON.stringify(stored.channelId)} (${JSON.stringify(stored.appIdentity)}) is ${outcome} on its message through ${JSON.stringify(route.channelId)}, the same app at its position in the pool now`,
        fields,
      );
      return { ...stored, channelId: route.channelId };
    }
    if (route.keepsMessage) {
      this.deps.logger.warn(
        `card stored under channel ${JSON.stringify(stored.channelId)} is ${outcome} through app ${JSON.stringify(route.channelId)}, which the channel's app pool now names it (list the app that was configured alone first in the pool, or the platform refuses to edit its message)`,
        fields,
      );
      return { ...stored, channelId: route.channelId };
    }
    const what = outcome === 'continued' || stored.final ? `goes on as a fresh message through ${JSON.stringify(route.channelId)}` : 'is ended without a word (its run was not resumed)';
    const sender = stored.appIdentity === undefined ? '' : ` (${JSON.stringify(stored.appIdentity)}${route.appIdentity === undefined ? '' : `; ${JSON.stringify(route.channelId)} is ${JSON.stringify(route.appIdentity)} now`})`;
    this.deps.logger.warn(
      `card ${stored.cardId} stored under app ${JSON.stringify(stored.channelId)}${sender}, which this process does not have: no app here may edit the message it sent, which stays as it last was; the card ${what}. To finish such cards on their message, keep the app in the pool, at the same position, until its cards ended`,
      fields,
    );
    const { message: _message, contentHash: _hash, ...rest } = stored;
    return { ...rest, channelId: route.channelId, continuations: [] };
  }
}

/** Ends `card` (opened from `stored`, seeded with its finished tools) as the stored final says. */
function endAsStored(card: ProgressCard, stored: StoredCard): void {
  const final = stored.final!;
  const at = final.endedAt;
  if (stored.status === 'completed') card.push({ type: 'run.completed', at, answer: final.answer });
  else if (stored.status === 'failed') card.push({ type: 'run.failed', at, error: final.error ?? '' });
  else card.push({ type: 'run.cancelled', at, ...(final.error !== undefined && { reason: final.error }) });
}
