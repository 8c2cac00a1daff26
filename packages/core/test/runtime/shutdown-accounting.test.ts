/**
 * `shutdown()` accounts for every card at its default deadline (8 s): what it reports is what
 * happened, each card's `finalDelivery` resolves with that same report, and no call reaches the
 * platform after `shutdown()` resolved.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FinalDelivery } from '../../src/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('shutdown accounts for every final', () => {
  it("a card whose first send is still being retried at the deadline: the report, finalDelivery and the platform agree, and nothing is sent afterwards", async () => {
    const { channel, cards } = setup({ overrides: { perCardIntervalMs: 0 } });
    // The first send fails for a long while: retried with growing waits past the 8 s deadline.
    channel.failNext({ op: 'send', failure: { kind: 'transient', detail: 'HTTP 502' }, times: 6 });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'deploy' });
    await settle(500);
    let resolvedAt: number | undefined;
    const shutdownAt = Date.now();
    const shutdown = cards.shutdown().then((reports) => {
      resolvedAt = Date.now();
      return reports;
    });
    let final: FinalDelivery | undefined;
    void card.finalDelivery.then((result) => (final = result));
    await settle(120_000);
    const [report] = await shutdown;
    expect(resolvedAt! - shutdownAt).toBeLessThanOrEqual(8000 + 15_000);
    // finalDelivery resolved, with the report shutdown gave.
    expect(final).toEqual(report);
    const sentAfter = channel.calls.filter((call) => call.at > resolvedAt! && !call.failure);
    expect(sentAfter).toEqual([]);
    const delivered = channel.calls.some((call) => !call.failure && call.payload.status === 'cancelled');
    expect(report!.ok).toBe(delivered);
    expect(cards.diagnostics().openCards ?? 0).toBe(0);
  });
});
