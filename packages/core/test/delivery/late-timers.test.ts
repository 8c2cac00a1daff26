/**
 * The budget store's schedule keeps a saturated route's capacity when every timer fires late (the
 * `runLateTimerRoute` contract, also run against the Redis store): slots are anchored to the slots
 * booked, not to when the previous call actually left; the windows still hold. Fake time only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { budgetSafetyMarginMs, InMemoryBudgetStore, pacingIntervalMs, type BudgetKey } from '../../src/store/index.js';
import { fakeTime, maxCallsInWindow, runLateTimerRoute } from '../../src/testing/index.js';

afterEach(() => vi.useRealTimers());

const T0 = 1_800_000_000_000;
const FEISHU_PATCH: BudgetKey = { key: 'feishu:cli_test:patch', windows: [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }] };
const DINGTALK_ROUTE: BudgetKey = { key: 'dingtalk:app:card', windows: [{ limit: 20, intervalMs: 1000 }] };

function expectWindowsHold(key: BudgetKey, arrivals: readonly number[]): void {
  for (const window of key.windows) expect(maxCallsInWindow(arrivals, window.intervalMs + budgetSafetyMarginMs(window.intervalMs))).toBeLessThanOrEqual(window.limit);
}

describe('InMemoryBudgetStore: timers that fire late', () => {
  it('990 calls on a saturated Feishu route with every timer 2 ms late take at most 990 spacings plus one', async () => {
    vi.useFakeTimers({ now: T0 });
    // 990: what a structural rank may put in the 1 000/min window (10 slots stay free for finals).
    const route = await runLateTimerRoute({ store: new InMemoryBudgetStore(), time: fakeTime(vi), key: FEISHU_PATCH, calls: 990, latenessMs: 2, arrivalDelayMs: 20 });
    const spacing = pacingIntervalMs(FEISHU_PATCH.windows);
    expect(route.elapsedMs).toBeLessThanOrEqual(990 * spacing + spacing);
    expectWindowsHold(FEISHU_PATCH, route.arrivals);
  });

  // Finals: the rank that may fill the whole window (paced ranks leave 2 of 20 free, and that binds before any lateness).
  it('on a one-window route (DingTalk 20/s) the window itself, counted at real arrivals, is all that costs time', async () => {
    vi.useFakeTimers({ now: T0 });
    const route = await runLateTimerRoute({ store: new InMemoryBudgetStore(), time: fakeTime(vi), key: DINGTALK_ROUTE, calls: 1000, latenessMs: 2, arrivalDelayMs: 0, rank: 'final' });
    const spacing = pacingIntervalMs(DINGTALK_ROUTE.windows);
    // A full window of 20 counted from a late arrival moves the next one by that lateness: 2 ms per 20 calls, not per call.
    expect(route.elapsedMs).toBeLessThanOrEqual(1000 * spacing + (1000 / 20) * 2 + spacing);
    expectWindowsHold(DINGTALK_ROUTE, route.arrivals);
  });

  it('a key idle for longer than the allowance restarts its schedule from the next call (no catch-up burst)', async () => {
    vi.useFakeTimers({ now: T0 });
    const store = new InMemoryBudgetStore();
    const spacing = pacingIntervalMs(FEISHU_PATCH.windows);
    const first = store.reserve({ keys: [FEISHU_PATCH], notBefore: T0, arrivalDelayMs: 0 });
    const afterIdle = store.reserve({ keys: [FEISHU_PATCH], notBefore: first + 10 * spacing, arrivalDelayMs: 0 });
    expect(afterIdle).toBe(first + 10 * spacing);
    expect(store.reserve({ keys: [FEISHU_PATCH], notBefore: afterIdle, arrivalDelayMs: 0 })).toBe(afterIdle + spacing);
  });
});
