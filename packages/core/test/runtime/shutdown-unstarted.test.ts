import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('shutdown of a card that was never started', () => {
  it('posts nothing for it and reports the final as skipped, while a started card still ends as cancelled', async () => {
    const { channel, cards } = setup();
    const idle = cards.open('memory', undefined, { title: 'opened, never used' });
    const started = cards.open('memory');
    started.start({ title: 'working' });
    await settle(1000);
    const shutdown = cards.shutdown('process exit');
    await settle(10_000);
    const results = await shutdown;

    expect(await idle.finalDelivery).toEqual({
      ok: true,
      status: 'cancelled',
      freshMessage: false,
      attempts: 0,
      continuations: { delivered: 0, total: 0 },
      skipped: 'never-started',
    });
    expect(results).toContainEqual(await idle.finalDelivery);
    // Only the started card has a message, and it ends cancelled.
    expect(channel.messages.size).toBe(1);
    expect([...channel.messages.values()][0]!.history.at(-1)).toMatchObject({ title: 'working', status: 'cancelled' });
    expect((await started.finalDelivery).skipped).toBeUndefined();
  });

  it('counts an invalid event as no start, and ignores events pushed after the shutdown', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    expect(card.push({ type: 'tool.started' })).toMatchObject({ accepted: false, reason: 'invalid' });
    const shutdown = cards.shutdown();
    await settle(1000);
    await shutdown;
    expect((await card.finalDelivery).skipped).toBe('never-started');
    expect(card.start({ title: 'too late' })).toEqual({ accepted: false, reason: 'after-terminal' });
    await settle(5000);
    expect(channel.calls).toHaveLength(0);
  });
});
