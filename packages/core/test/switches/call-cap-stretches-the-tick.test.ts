import { afterEach, describe, expect, it, vi } from 'vitest';
import { tickStretch } from '../../src/index.js';
import { settle } from '../helpers.js';
import { CALL_CAP, cappedCard, tenMinuteTool } from './capped-card.js';

afterEach(() => vi.useRealTimers());

/** `runCallCap`: a message's progressive updates thin out as it nears its cap; the final always goes out. */
describe('per-message call cap', () => {
  it('stretches the tick as a message nears its cap and always sends the final', async () => {
    const { card, received } = cappedCard('capped');
    await tenMinuteTool(card);
    card.toolFinished('c1', 'done');
    card.complete('finished');
    await settle(20_000);
    expect((await card.finalDelivery).ok).toBe(true);
    const accepted = received();
    expect(accepted.length).toBeLessThanOrEqual(CALL_CAP);
    expect(accepted.at(-1)!.payload.status).toBe('completed');
    // Updates thin out: the last gap between progressive updates is longer than the first.
    const progressive = accepted.filter((call) => call.payload.status === 'running').map((call) => call.at);
    const gaps = progressive.slice(1).map((at, i) => at - progressive[i]!);
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]!);
  });

  it('an update the cap holds back is no call: delivery events count only the calls the platform received', async () => {
    const { cards, card, received } = cappedCard('capped');
    const reported: string[] = [];
    cards.on('delivery', (event) => reported.push(event.call));
    await tenMinuteTool(card);
    card.complete('finished');
    await settle(20_000);
    expect((await card.finalDelivery).ok).toBe(true);
    expect(received().length).toBeLessThanOrEqual(CALL_CAP);
    expect(reported).toHaveLength(received().length);
  });

  it('tickStretch is 1 until half the cap is spent and infinite when only the final call is left', () => {
    expect(tickStretch(0, 40)).toBe(1);
    expect(tickStretch(19, 40)).toBe(1);
    expect(tickStretch(29, 40)).toBe(2);
    expect(tickStretch(39, 40)).toBe(Number.POSITIVE_INFINITY);
  });
});
