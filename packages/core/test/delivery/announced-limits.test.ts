import { describe, expect, it } from 'vitest';
import { InMemoryBudgetStore } from '../../src/index.js';
import { AnnouncedLimits } from '../../src/plugin/index.js';

const ROUTE = 'POST /channels/1/messages';

describe('budgets learned from limits the platform announces', () => {
  it('a route not yet announced draws from a probe key; after the first answer, from its bucket at the announced rate', () => {
    const limits = new AnnouncedLimits('discord:app', { limit: 1, intervalMs: 1000 });
    expect(limits.keysFor(ROUTE)).toEqual({ key: 'discord:app:probe:POST /channels/1/messages', windows: [{ limit: 1, intervalMs: 1000 }] });
    limits.report(ROUTE, { bucket: 'abc', limit: 5, remaining: 4, resetAfterMs: 5000, receivedAt: 10_000 });
    expect(limits.keysFor(ROUTE)).toEqual({ key: 'discord:app:bucket:abc', windows: [{ limit: 5, intervalMs: 5000 }] });
    // two routes announcing the same bucket share its key
    limits.report('PATCH /channels/1/messages', { bucket: 'abc', limit: 5, remaining: 3, resetAfterMs: 4000, receivedAt: 11_000 });
    expect(limits.keysFor('PATCH /channels/1/messages').key).toBe('discord:app:bucket:abc');
  });

  it('a spent window (remaining 0) holds calls until its reset, a lowered limit changes the windows', () => {
    const limits = new AnnouncedLimits('d', { limit: 1, intervalMs: 1000 });
    limits.report(ROUTE, { bucket: 'b', limit: 5, remaining: 0, resetAfterMs: 1500, receivedAt: 20_000 });
    expect(limits.keysFor(ROUTE).notBefore).toBe(21_500);
    // an answer that left earlier but arrives later does not reopen the window
    limits.report(ROUTE, { bucket: 'b', limit: 5, remaining: 2, resetAfterMs: 3000, receivedAt: 20_100 });
    expect(limits.keysFor(ROUTE).notBefore).toBe(21_500);
    limits.report(ROUTE, { bucket: 'b', limit: 2, remaining: 1, resetAfterMs: 8000, receivedAt: 22_000 });
    expect(limits.keysFor(ROUTE)).toEqual({ key: 'd:bucket:b', windows: [{ limit: 2, intervalMs: 8000 }] });
    expect(limits.learned(ROUTE)).toEqual({ bucket: 'b', limit: 2, windowMs: 8000 });
  });

  it('ignores announcements that make no sense instead of throwing', () => {
    const limits = new AnnouncedLimits('d', { limit: 1, intervalMs: 1000 });
    limits.report(ROUTE, { bucket: 'b', limit: Number.NaN, remaining: 1, resetAfterMs: 1000, receivedAt: 0 });
    limits.report(ROUTE, { bucket: 'b', limit: 0, remaining: 1, resetAfterMs: 1000, receivedAt: 0 });
    expect(limits.learned(ROUTE)).toBeUndefined();
    expect(() => new AnnouncedLimits('d', { limit: 0, intervalMs: 1000 })).toThrow(/probeWindow/);
  });

  it('the in-memory store paces a key by its latest windows, keeping the calls it counted', () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const reserve = (limit: number, intervalMs: number, notBefore: number) => store.reserve({ keys: [{ key: 'k', windows: [{ limit, intervalMs }] }], notBefore, arrivalDelayMs: 0 });
    const fast = [reserve(10, 1000, 0), reserve(10, 1000, 0), reserve(10, 1000, 0)];
    expect(fast[2]! - fast[1]!).toBeLessThan(200);
    // the platform lowers the limit to 2 per second: the next call respects the new window over
    // the calls already counted (the last two arrivals are within it)
    const slow = reserve(2, 1000, 0);
    expect(slow).toBeGreaterThanOrEqual(fast[1]! + 1000);
    expect(reserve(2, 1000, 0) - slow).toBeGreaterThanOrEqual(500);
  });
});
