import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('card-per-turn mode after the run ended', () => {
  it('a late round.started is ignored like any event after the terminal one: no stray card spinning on running', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { cardPer: 'turn' });
    card.roundStarted(1);
    card.answer('one');
    card.complete('done');
    await settle(5000);
    expect(card.roundStarted(2)).toEqual({ accepted: false, reason: 'after-terminal' });
    expect(card.toolStarted('late', 'shell', { command: 'make' })).toEqual({ accepted: false, reason: 'after-terminal' });
    await settle(10_000);
    expect(card.status).toBe('completed');
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'done' });
  });
});
