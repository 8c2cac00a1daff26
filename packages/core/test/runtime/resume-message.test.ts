import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('a card continuing an earlier message (OpenCardOptions.message)', () => {
  it('updates that message in place instead of sending a new one', async () => {
    const { channel, cards } = setup();
    const first = cards.open('memory');
    first.start({ title: 'Run the tests' });
    await settle(1000);
    const message = first.message;
    expect(message).toBeDefined();
    // The process that opened it is gone; a new card picks the run up on the same message.
    const second = cards.open('memory', undefined, { message });
    second.toolStarted('c1', 'shell', { command: 'npm test' });
    second.toolFinished('c1', '212 passed');
    second.complete('All tests pass.');
    await settle(5000);
    expect(second.message).toEqual(message);
    expect(channel.messages.size).toBe(1);
    expect(channel.calls.filter((call) => call.op === 'send')).toHaveLength(1);
    expect(channel.messages.get(message!.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'All tests pass.' });
    expect(channel.messages.get(message!.id)!.history.at(-1)!.tools[0]).toContain('212 passed');
  });
});
