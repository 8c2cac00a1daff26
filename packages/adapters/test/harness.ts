import { createProgressCards, memoryChannel, silentLogger, type MemoryPayload, type ProgressCard, type ProgressCards } from '@progresscard/core';

/** A composition over one in-memory channel, and the final payload of a card on it. */
export interface MemoryHarness {
  readonly cards: ProgressCards;
  open(title?: string): ProgressCard;
  /** The last payload the chat was shown for the card's message, once its final was delivered. */
  finalPayload(card: ProgressCard): Promise<MemoryPayload>;
}

export function memoryHarness(): MemoryHarness {
  const memory = memoryChannel();
  const cards = createProgressCards({ channels: [memory], logger: silentLogger, env: {} });
  return {
    cards,
    open: (title) => cards.open('memory', undefined, { locale: 'en', ...(title ? { title } : {}) }),
    async finalPayload(card) {
      const final = await card.finalDelivery;
      if (!final.ok || !final.message) throw new Error(`final not delivered: ${JSON.stringify(final)}`);
      return memory.messages.get(final.message.id)!.history.at(-1)!;
    },
  };
}
