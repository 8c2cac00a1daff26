import { describe, expect, it } from 'vitest';
import {
  CallHistory,
  ChangeFeed,
  FaultInjector,
  FaultRuleError,
  SlidingWindowLimiter,
  createManualClock,
} from '../src/index.js';

describe('SlidingWindowLimiter', () => {
  it('allows `limit` calls per window and says when room comes back', () => {
    const clock = createManualClock(1_000_000);
    const limiter = new SlidingWindowLimiter([{ limit: 5, intervalMs: 1000 }], clock);
    for (let i = 0; i < 5; i++) {
      expect(limiter.tryAcquire('m1').allowed).toBe(true);
      clock.advance(100);
    }
    const refused = limiter.tryAcquire('m1');
    expect(refused).toMatchObject({ allowed: false, window: { limit: 5 } });
    // first call at t=0, now t=500 → room at t=1000
    expect(refused.allowed === false && refused.retryAfterMs).toBe(500);
    expect(limiter.tryAcquire('m2').allowed).toBe(true); // other keys are independent
    clock.advance(500);
    expect(limiter.tryAcquire('m1').allowed).toBe(true);
  });

  it('applies every window at once (50/s and 1000/min)', () => {
    const clock = createManualClock(0);
    const limiter = new SlidingWindowLimiter([{ limit: 50, intervalMs: 1000 }, { limit: 60, intervalMs: 60_000 }], clock);
    for (let i = 0; i < 50; i++) expect(limiter.tryAcquire('app').allowed).toBe(true);
    expect(limiter.tryAcquire('app')).toMatchObject({ allowed: false, window: { limit: 50 } });
    clock.advance(1000);
    for (let i = 0; i < 10; i++) expect(limiter.tryAcquire('app').allowed).toBe(true);
    const refused = limiter.tryAcquire('app');
    expect(refused).toMatchObject({ allowed: false, window: { limit: 60 } });
    expect(refused.allowed === false && refused.retryAfterMs).toBe(59_000);
  });

  it('rejects nonsense windows naming the field', () => {
    expect(() => new SlidingWindowLimiter([{ limit: 0, intervalMs: 1000 }], Date.now)).toThrow(/windows\[0\]\.limit/);
  });
});

describe('FaultInjector', () => {
  it('answers only the n-th call of a route, counted per key when asked', () => {
    const injector = new FaultInjector(createManualClock(0), ['patch', 'send']);
    injector.add({ route: 'patch', nth: 2, respond: { status: 400, body: { code: 230020 } } });
    injector.add({ route: 'patch', nth: 1, perKey: true, latencyMs: 50 });
    expect(injector.onCall('patch', 'a')).toMatchObject({ callNumber: 1, latencyMs: 50, response: undefined });
    expect(injector.onCall('patch', 'b')).toMatchObject({ callNumber: 2, keyCallNumber: 1, latencyMs: 50, response: { status: 400 } });
    expect(injector.onCall('patch', 'a')).toMatchObject({ callNumber: 3, keyCallNumber: 2, latencyMs: 0, response: undefined });
    expect(injector.onCall('send')).toMatchObject({ callNumber: 1, response: undefined });
    expect(injector.list().map((r) => r.hits)).toEqual([1, 2]);
  });

  it('answers calls inside [fromMs, toMs) of the clock measured from the origin', () => {
    const clock = createManualClock(10_000);
    const injector = new FaultInjector(clock);
    injector.add({ route: 'patch', window: { fromMs: 1000, toMs: 2000 }, respond: { status: 500 } });
    expect(injector.onCall('patch').response).toBeUndefined();
    clock.advance(1000);
    expect(injector.onCall('patch').response).toEqual({ status: 500 });
    clock.advance(999);
    expect(injector.onCall('patch').response).toEqual({ status: 500 });
    clock.advance(1);
    expect(injector.onCall('patch').response).toBeUndefined();
    injector.setOrigin(clock());
    clock.advance(1500);
    expect(injector.onCall('patch').response).toEqual({ status: 500 });
  });

  it('limits matches with `times`, filters by key, and can be cleared', () => {
    const injector = new FaultInjector(createManualClock(0));
    const id = injector.add({ route: 'patch', key: 'om_1', times: 2, respond: { status: 400 } });
    expect(injector.onCall('patch', 'om_2').response).toBeUndefined();
    expect(injector.onCall('patch', 'om_1').response).toBeDefined();
    expect(injector.onCall('patch', 'om_1').response).toBeDefined();
    expect(injector.onCall('patch', 'om_1').response).toBeUndefined();
    expect(injector.remove(id)).toBe(true);
    injector.add({ route: 'patch', respond: { status: 503 } });
    injector.clear();
    expect(injector.list()).toEqual([]);
    expect(injector.onCall('patch').response).toBeUndefined();
    expect(injector.callCount('patch')).toBe(5);
    expect(injector.callCount('patch', 'om_1')).toBe(3);
  });

  it('refuses malformed rules naming the field and value', () => {
    const injector = new FaultInjector(createManualClock(0), ['im.message.patch']);
    expect(() => injector.add({ route: 'patch', respond: { status: 400 } })).toThrow(FaultRuleError);
    expect(() => injector.add({ route: 'patch', respond: { status: 400 } })).toThrow(/route = "patch".*im\.message\.patch/);
    expect(() => injector.add({ route: 'im.message.patch', nth: 0, respond: { status: 400 } })).toThrow(/nth = 0/);
    expect(() => injector.add({ route: 'im.message.patch', window: { fromMs: 5, toMs: 5 }, respond: { status: 400 } })).toThrow(/window/);
    expect(() => injector.add({ route: 'im.message.patch', respond: { status: 99 } })).toThrow(/respond\.status = 99/);
    expect(() => injector.add({ route: 'im.message.patch' })).toThrow(/respond/);
  });
});

describe('CallHistory', () => {
  it('stamps calls with the clock, filters, and counts per route', () => {
    const clock = createManualClock(5);
    const history = new CallHistory(clock);
    history.record({ route: 'send', key: 'om_1', outcome: 'accepted', status: 200, code: 0 });
    clock.advance(10);
    history.record({ route: 'patch', key: 'om_1', outcome: 'rejected', status: 400, code: 230020 });
    history.record({ route: 'patch', key: 'om_1', outcome: 'accepted', status: 200, code: 0 });
    expect(history.list({ route: 'patch' }).map((r) => [r.seq, r.at, r.code])).toEqual([[2, 15, 230020], [3, 15, 0]]);
    expect(history.list({ outcome: 'rejected' })).toHaveLength(1);
    expect(history.counts()).toEqual({ send: { calls: 1, accepted: 1, rejected: 0 }, patch: { calls: 2, accepted: 1, rejected: 1 } });
  });
});

describe('ChangeFeed', () => {
  it('delivers to subscribers until they unsubscribe, ignoring a throwing one', () => {
    const feed = new ChangeFeed<number>();
    const seen: number[] = [];
    feed.subscribe(() => {
      throw new Error('bad listener');
    });
    const off = feed.subscribe((n) => seen.push(n));
    feed.emit(1);
    off();
    feed.emit(2);
    expect(seen).toEqual([1]);
    expect(feed.size).toBe(1);
  });
});
