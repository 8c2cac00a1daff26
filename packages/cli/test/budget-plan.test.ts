import { describe, expect, it } from 'vitest';
import { budgetPlan, sustainedCallsPerSecond } from '../src/index.js';
import { FEISHU_DEFAULTS } from '@progresscard/plugin-feishu';
import { DINGTALK_DEFAULTS } from '@progresscard/plugin-dingtalk';

describe('budget plan', () => {
  it('Feishu: 1000/min is the binding window, 16.7 calls/s, so 50 runs stay fresh at a 3 s tick', () => {
    expect(sustainedCallsPerSecond(FEISHU_DEFAULTS.budget)).toBeCloseTo(16.67, 2);
    const plan = budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000 });
    expect(plan.freshRuns).toBe(50);
    expect(plan.load.map((l) => [l.factor, l.runs, l.refreshEverySeconds, l.staleSeconds])).toEqual([
      [1, 50, 3, 0],
      [2, 100, 6, 3],
      [10, 500, 30, 27],
      [100, 5000, 300, 297],
    ]);
  });

  it('processes sharing one app split its rate', () => {
    expect(budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, processes: 2 }).freshRuns).toBe(25);
  });

  it('DingTalk: 5000 calls a month allow about 24 ten-minute runs at a 3 s tick; a cap of 60 calls stretches the tick to about 10 s', () => {
    const plan = budgetPlan({ budget: DINGTALK_DEFAULTS.budget, tickMs: 3000, monthlyQuota: 5000, runCallCap: 60 });
    expect(plan.freshRuns).toBe(60);
    expect(plan.callsPerRun).toBe(202);
    expect(plan.runsPerMonth).toBe(24);
    expect(plan.capped).toEqual({ cap: 60, tickSeconds: 10.3, callsPerRun: 60, runsPerMonth: 83 });
  });

  it('names a bad tick or process count', () => {
    expect(() => budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 0 })).toThrow('tickMs must be > 0, got 0');
    expect(() => budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, processes: 1.5 })).toThrow('processes must be a positive integer, got 1.5');
  });
});
