import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('shutdown in card-per-turn mode', () => {
  it("waits for an earlier turn's final that is still being retried, so that card does not stay on 'running'", async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { cardPer: 'turn' });
    card.roundStarted(1);
    card.toolStarted('a', 'shell', { command: 'make' });
    await settle(1000);
    // turn 1's final (sent when round 2 starts) fails 3 times: retried at +1 s, +2 s, +4 s
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 502' }, times: 3 });
    card.roundStarted(2);
    card.answer('turn 2');
    await settle(500);
    const shutdown = cards.shutdown('bye');
    await settle(60_000);
    await shutdown;
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed' });
    expect(channel.messages.get('m2')!.history.at(-1)).toMatchObject({ status: 'cancelled', answer: 'turn 2' });
  });
});
