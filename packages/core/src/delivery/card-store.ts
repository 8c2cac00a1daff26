import type { CardStatus } from '../card/view.js';
import type { MessageRef } from '../plugin/contract.js';
import type { CardDeliveryPhase } from './delivery-policy.js';

/** What a {@link CardStore} keeps of one open card message. */
export interface StoredCard {
  /** Card message id (a card-per-turn run has one per turn). */
  readonly cardId: string;
  readonly channelId: string;
  /** Run status the card shows. */
  readonly status: CardStatus;
  /** Where its delivery stands. */
  readonly phase: CardDeliveryPhase;
  /** The main message, once sent. */
  readonly message?: MessageRef;
  /** Idempotency key of the main message (it changes with each new message of the card). */
  readonly idempotencyKey: string;
  /** Messages of continuation parts 2..n sent so far, by part (undefined for a part not sent yet). */
  readonly continuations: readonly (MessageRef | undefined)[];
}

/**
 * Where open cards' delivery state lives, keyed by card id: written after each platform call,
 * deleted once the card's final settled. Async so that a shared store (e.g. Redis) can implement
 * it; the core never waits on it for delivery, and a failing store only logs.
 */
export interface CardStore {
  get(cardId: string): Promise<StoredCard | undefined>;
  put(card: StoredCard): Promise<void>;
  delete(cardId: string): Promise<void>;
  /** Every stored card. */
  list(): Promise<StoredCard[]>;
}

/** The default {@link CardStore}: a map in this process's memory. */
export class InMemoryCardStore implements CardStore {
  private readonly cards = new Map<string, StoredCard>();

  async get(cardId: string): Promise<StoredCard | undefined> {
    return this.cards.get(cardId);
  }

  async put(card: StoredCard): Promise<void> {
    this.cards.set(card.cardId, card);
  }

  async delete(cardId: string): Promise<void> {
    this.cards.delete(cardId);
  }

  async list(): Promise<StoredCard[]> {
    return [...this.cards.values()];
  }
}
