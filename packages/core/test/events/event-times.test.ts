import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEvent } from '../../src/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/**
 * Epoch milliseconds are often fractional (`performance.timeOrigin + performance.now()`, a Python
 * `time.time() * 1000`). Such a stamp used to make the whole event invalid: a dropped
 * `run.completed` left the card spinning on "running" until shutdown.
 */
describe('event times', () => {
  it('a fractional `at` is accepted, rounded to the millisecond, and the run ends', async () => {
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    expect(card.push({ type: 'run.started', at: t0 + 0.25, title: 'float clock' })).toEqual({ accepted: true });
    expect(card.push({ type: 'run.completed', at: t0 + 1234.6, answer: 'Done.' })).toEqual({ accepted: true });
    await settle(5000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(card.view().elapsedMs).toBe(1235);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Done.' });
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, '5'])('an `at` of %s is still refused, naming it', (at) => {
    expect(() => parseEvent({ type: 'run.completed', at })).toThrow(/run\.completed\.at = /);
  });
});
