import type { CardStatus, Locale } from '../../card/view.js';
import type { MessageRef } from '../../plugin/contract.js';
import type { CardDeliveryPhase } from '../card-delivery-phases.js';

/**
 * Who may update a stored card, and until when. A process holds a lease on every card it delivers
 * and renews it while it lives; once `expiresAt` passed, another process may claim the card, which
 * raises `fencingToken`. A write carrying an older token is refused, so two processes never both
 * keep updating one card.
 */
export interface CardLease {
  /** Id of the composition (process) holding the card. */
  readonly owner: string;
  /** Epoch ms after which the lease is free to claim. */
  readonly expiresAt: number;
  /** Raised by one at each claim; writes must carry the current one. */
  readonly fencingToken: number;
}

/** A tool call still running when the card was stored: enough to keep its timer going after a restart. */
export interface StoredTool {
  readonly callId: string;
  readonly name: string;
  /** What the call works on (the card line's detail), possibly empty. */
  readonly detail: string;
  /** Epoch ms the call started. */
  readonly startedAt: number;
}

/** A tool call that had ended when the run ended (see {@link StoredFinal}). */
export interface StoredFinishedTool extends StoredTool {
  /** Epoch ms the call ended. */
  readonly finishedAt: number;
  /** Its one-line result, if any. */
  readonly summary?: string;
  /** True when the call failed. */
  readonly failed: boolean;
}

/**
 * How the run ended, stored as soon as the card turned terminal (before its final is delivered):
 * a process that takes the card over (after this one was killed during the final's retries)
 * delivers this final rather than ending the card as interrupted.
 */
export interface StoredFinal {
  /** The answer the card shows (may be empty, e.g. for a failed run). */
  readonly answer: string;
  /** The error of a failed run, or the reason of a cancelled one. */
  readonly error?: string;
  /** Epoch ms the run ended. */
  readonly endedAt: number;
  /** Tool calls that had ended, with their results. */
  readonly tools: readonly StoredFinishedTool[];
}

/** What a {@link CardStore} keeps of one open card message. JSON-serialisable. */
export interface StoredCard {
  /** Card message id (a card-per-turn run has one per turn). */
  readonly cardId: string;
  /** The run the card belongs to (`OpenOptions.runId`, else the card's id): what `ProgressCards.resume` looks for. */
  readonly runId: string;
  readonly channelId: string;
  /** The app that sent the card's messages (`ChannelPlugin.appIdentity`), when its plugin names one; absent in records written before it existed. */
  readonly appIdentity?: string;
  /** The target given to `open()` (plugin-specific; undefined = the channel's configured one). */
  readonly target?: unknown;
  /** Run status the card shows. */
  readonly status: CardStatus;
  /** Where its delivery stands. */
  readonly phase: CardDeliveryPhase;
  /** The main message (Feishu message id, DingTalk outTrackId…), once sent. */
  readonly message?: MessageRef;
  /** Idempotency key of the main message (it changes with each new message of the card). */
  readonly idempotencyKey: string;
  /** Messages of continuation parts 2..n sent so far, by part (undefined for a part not sent yet). */
  readonly continuations: readonly (MessageRef | undefined)[];
  /** Card title and language, to redraw the card after a restart. */
  readonly title: string;
  readonly locale: Locale;
  /** Epoch ms the run started. */
  readonly startedAt: number;
  /** Tool calls running when the card was stored, with their start times. */
  readonly tools: readonly StoredTool[];
  /** SHA-1 (hex) of the last content the platform accepted on the main message. */
  readonly contentHash?: string;
  /** Set once the run ended (`status` is then terminal): the final to deliver. */
  readonly final?: StoredFinal;
  /** Who holds the card (see {@link CardLease}). */
  readonly lease: CardLease;
}

/**
 * Where open cards' delivery state lives, keyed by card id: written after each accepted platform
 * call, deleted once the card's final settled. Async so that a shared store (e.g. Redis) can
 * implement it; the core never waits on it for delivery, and a failing store only logs.
 *
 * Lease contract (a shared implementation must keep it atomically across processes):
 * - {@link put} and {@link delete} are refused (resolve `false`, nothing changed) when the stored
 *   card carries a different `lease.fencingToken` than the one given: another process claimed it.
 *   A card not stored yet is written.
 * - {@link claim} succeeds only when the stored lease expired at `now` or `owner` holds it already;
 *   it raises the fencing token by one.
 * - {@link renew} extends the leases given, except those whose fencing token moved on (reported lost).
 */
export interface CardStore {
  get(cardId: string): Promise<StoredCard | undefined>;
  /** Writes `card`; resolves false when refused by the fencing token. */
  put(card: StoredCard): Promise<boolean>;
  /** Deletes the card; resolves false when refused by the fencing token. */
  delete(cardId: string, fencingToken: number): Promise<boolean>;
  /** Every stored card. */
  list(): Promise<StoredCard[]>;
  /**
   * Takes the lease of a stored card for `owner` until `expiresAt` (epoch ms). Resolves the new
   * lease, or undefined when the card is not stored or another owner's lease runs past `now`.
   */
  claim(cardId: string, owner: string, expiresAt: number, now: number): Promise<CardLease | undefined>;
  /**
   * Extends to `expiresAt` the leases `owner` holds on `cards`. Resolves the ids of those `lost`
   * (stored under another fencing token) and of those `missing` (no longer stored, e.g. a Redis
   * restarted empty: the core stores them again).
   */
  renew(owner: string, cards: readonly { readonly cardId: string; readonly fencingToken: number }[], expiresAt: number): Promise<LeaseRenewal>;
}

/** What {@link CardStore.renew} found: card ids whose lease was lost, and card ids no longer stored. */
export interface LeaseRenewal {
  readonly lost: readonly string[];
  readonly missing: readonly string[];
}

/** The default {@link CardStore}: a map in this process's memory, with the same lease rules as a shared one. */
export class InMemoryCardStore implements CardStore {
  private readonly cards = new Map<string, StoredCard>();

  async get(cardId: string): Promise<StoredCard | undefined> {
    return this.cards.get(cardId);
  }

  async put(card: StoredCard): Promise<boolean> {
    const stored = this.cards.get(card.cardId);
    if (stored && stored.lease.fencingToken !== card.lease.fencingToken) return false;
    this.cards.set(card.cardId, { ...card });
    return true;
  }

  async delete(cardId: string, fencingToken: number): Promise<boolean> {
    const stored = this.cards.get(cardId);
    if (stored && stored.lease.fencingToken !== fencingToken) return false;
    this.cards.delete(cardId);
    return true;
  }

  async list(): Promise<StoredCard[]> {
    return [...this.cards.values()];
  }

  async claim(cardId: string, owner: string, expiresAt: number, now: number): Promise<CardLease | undefined> {
    const stored = this.cards.get(cardId);
    if (!stored || (stored.lease.owner !== owner && stored.lease.expiresAt > now)) return undefined;
    const lease: CardLease = { owner, expiresAt, fencingToken: stored.lease.fencingToken + 1 };
    this.cards.set(cardId, { ...stored, lease });
    return lease;
  }

  async renew(owner: string, cards: readonly { readonly cardId: string; readonly fencingToken: number }[], expiresAt: number): Promise<LeaseRenewal> {
    const lost: string[] = [];
    const missing: string[] = [];
    for (const { cardId, fencingToken } of cards) {
      const stored = this.cards.get(cardId);
      if (!stored) {
        missing.push(cardId);
        continue;
      }
      if (stored.lease.fencingToken !== fencingToken) lost.push(cardId);
      else this.cards.set(cardId, { ...stored, lease: { owner, expiresAt, fencingToken } });
    }
    return { lost, missing };
  }
}
