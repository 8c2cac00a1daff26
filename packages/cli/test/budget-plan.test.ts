import { describe, expect, it } from 'vitest';
import { budgetPlan, formatPlan, pacedCallsPerSecond, sustainedCallsPerSecond } from '../src/index.js';
import { FEISHU_DEFAULTS } from '@progresscard/plugin-feishu';
import { DINGTALK_DEFAULTS } from '@progresscard/plugin-dingtalk';

describe('budget plan', () => {
  it('Feishu: 1000/min is the binding window, 16.7 calls/s allowed, paced at 16.3/s with jitter margins, so 49 runs stay fresh at a 3 s tick', () => {
    expect(sustainedCallsPerSecond(FEISHU_DEFAULTS.budget)).toBeCloseTo(16.67, 2);
    expect(pacedCallsPerSecond(FEISHU_DEFAULTS.budget)).toBeCloseTo(1000 / 61.2, 2);
    const plan = budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000 });
    expect(plan.callsPerSecond).toBe(16.3);
    expect(plan.freshRuns).toBe(49);
    expect(plan.load.map((l) => [l.factor, l.runs, l.refreshEverySeconds, l.staleSeconds])).toEqual([
      [1, 49, 3, 0],
      [2, 98, 6, 3],
      [10, 490, 30, 27],
      [100, 4900, 299.9, 296.9],
    ]);
    expect(formatPlan('feishu', plan)).toContain('feishu: 16.3 calls/s paced (of 16.7/s allowed');
  });

  it('processes sharing one app split its rate', () => {
    expect(budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, processes: 2 }).freshRuns).toBe(24);
  });

  it('apps of one channel add their rates; N runs need ⌈N ÷ one app\'s fully fresh runs⌉ apps', () => {
    const ten = budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, apps: 10 });
    expect(ten.callsPerSecond).toBe(163.4);
    expect(ten.freshRuns).toBe(490);
    const planned = budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, runs: 20_000 });
    expect(planned.appsFor).toEqual({ runs: 20_000, apps: 409, freshRunsPerApp: 49 });
    expect(formatPlan('feishu', planned)).toContain('20000 runs with running tools need 409 apps to stay fully fresh');
    // Two processes share each app: each app keeps 24 runs fresh per process.
    expect(budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, processes: 2, runs: 49 }).appsFor?.apps).toBe(3);
    expect(() => budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, apps: 0 })).toThrow('apps must be a positive integer, got 0');
  });

  it('DingTalk: 5000 calls a month allow about 24 ten-minute runs at a 3 s tick; a cap of 60 calls stretches the tick to about 10 s', () => {
    const plan = budgetPlan({ budget: DINGTALK_DEFAULTS.budget, tickMs: 3000, monthlyQuota: 5000, runCallCap: 60 });
    expect(plan.freshRuns).toBe(57);
    expect(plan.callsPerRun).toBe(202);
    expect(plan.runsPerMonth).toBe(24);
    expect(plan.capped).toEqual({ cap: 60, tickSeconds: 10.3, callsPerRun: 60, runsPerMonth: 83 });
  });

  it('names a bad tick or process count', () => {
    expect(() => budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 0 })).toThrow('tickMs must be > 0, got 0');
    expect(() => budgetPlan({ budget: FEISHU_DEFAULTS.budget, tickMs: 3000, processes: 1.5 })).toThrow('processes must be a positive integer, got 1.5');
  });
});
