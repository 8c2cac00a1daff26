import { pacingIntervalMs, type BudgetWindow } from '@progresscard/core/store';

/**
 * Budget arithmetic for `progresscard plan` and `doctor`. Every figure comes from one number,
 * {@link pacedCallsPerSecond} of the channel's declared budget windows — the rate the core's budget
 * store really paces calls at — so when budgets change shape only that function has to follow.
 *
 * Formulas (all per app, i.e. per budget key):
 * - paced rate R = 1000 ÷ the core's `pacingIntervalMs` (each window widened by its jitter margin;
 *   Feishu: 50/1 s and 1000/60 s → 61.2 ms → 16.3/s, of the 16.7/s the platform allows);
 * - a run with running tools needs one update per tick T, so fully fresh runs N = ⌊R × T⌋ (Feishu, T = 3 s: 49);
 * - at load L runs, each card refreshes every max(T, L ÷ R) seconds; staleness = that − T;
 * - calls per run ≈ duration ÷ T + 2 (the send and the final); runs per month = ⌊quota ÷ calls per run⌋;
 * - a per-run call cap C stretches the tick to duration ÷ (C − 2) for a run of that duration;
 * - A apps of the channel (`appPool`, each its own budget) multiply the rate by A; N runs need
 *   ⌈N ÷ fully fresh runs of one app⌉ apps to stay fully fresh (more when chats spread unevenly).
 */

/**
 * Calls per second the channel can keep up forever under all its windows at once: the smallest
 * `limit / (intervalMs / 1000)`. This is the one place `plan` reads the budget's shape.
 * @throws Error when `windows` is empty.
 */
export function sustainedCallsPerSecond(windows: readonly BudgetWindow[]): number {
  if (windows.length === 0) throw new Error('budget has no windows');
  return Math.min(...windows.map((window) => window.limit / (window.intervalMs / 1000)));
}

/**
 * Calls per second the core really sends under these windows: 1000 ÷ `pacingIntervalMs` (every window
 * widened by its jitter margin, so a little under {@link sustainedCallsPerSecond}; Feishu 16.3/s).
 * @throws Error when `windows` is empty.
 */
export function pacedCallsPerSecond(windows: readonly BudgetWindow[]): number {
  if (windows.length === 0) throw new Error('budget has no windows');
  return 1000 / pacingIntervalMs(windows);
}

/** Input of {@link budgetPlan}. */
export interface PlanInput {
  readonly budget: readonly BudgetWindow[];
  /** Tick of running tools, ms. */
  readonly tickMs: number;
  /** Processes sharing the app's budget (each with its own in-memory budget store): the rate is split. */
  readonly processes?: number;
  /** Apps (bots) of the channel the cards are spread over (`appPool`), each with its own budget: the rate is multiplied (default 1). */
  readonly apps?: number;
  /** Runs with running tools to plan for (per process when `processes` > 1, as every figure here): the result says how many apps keep them fully fresh. */
  readonly runs?: number;
  /** Typical run length for the quota figures, ms (default 10 minutes). */
  readonly runMs?: number;
  /** Platform calls per month (DingTalk standard org: 5000), if the platform meters them. */
  readonly monthlyQuota?: number;
  /** Most calls one card message may spend (the `runCallCap` switch). */
  readonly runCallCap?: number;
  /** Platform requests per send, update and final (the transport's `callsPerOperation`; default 1 each). */
  readonly callsPerOperation?: { readonly send: number; readonly update: number; readonly final: number };
}

/** One load level of {@link PlanResult.load}. */
export interface LoadLevel {
  /** How many times the fully fresh load. */
  readonly factor: number;
  /** Concurrent runs with running tools. */
  readonly runs: number;
  /** Seconds between two refreshes of one card at this load. */
  readonly refreshEverySeconds: number;
  /** Seconds a card lags behind its tick at this load (0 when fully fresh). */
  readonly staleSeconds: number;
}

/** What {@link budgetPlan} works out. Rates in calls/s, times in seconds unless named. */
export interface PlanResult {
  /** The paced rate ({@link pacedCallsPerSecond}), split among the processes. */
  readonly callsPerSecond: number;
  /** What the platform's windows allow ({@link sustainedCallsPerSecond}), split among the processes. */
  readonly allowedCallsPerSecond: number;
  readonly tickSeconds: number;
  readonly processes: number;
  /** Apps the rate is summed over (see {@link PlanInput.apps}). */
  readonly apps: number;
  /** With {@link PlanInput.runs}: those runs, and the apps that keep them all fully fresh at the tick. */
  readonly appsFor?: { readonly runs: number; readonly apps: number; readonly freshRunsPerApp: number };
  /** Runs with running tools that all refresh every tick. */
  readonly freshRuns: number;
  /** At 1×, 2×, 10× and 100× the fully fresh load. */
  readonly load: readonly LoadLevel[];
  /** Platform requests one run of {@link PlanInput.runMs} spends at the tick (updates, send and final, each as many requests as the transport makes). */
  readonly callsPerRun: number;
  /** Platform requests per send, update and final that {@link callsPerRun} counts. */
  readonly callsPerOperation: { readonly send: number; readonly update: number; readonly final: number };
  readonly runMinutes: number;
  /** With a monthly quota: runs of that length a month; otherwise undefined. */
  readonly runsPerMonth?: number;
  /** With a call cap: the tick a run of that length is stretched to (seconds), and the calls it then spends. */
  readonly capped?: { readonly cap: number; readonly tickSeconds: number; readonly callsPerRun: number; readonly runsPerMonth?: number };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The plan for one channel. @throws Error naming the bad input (a tick or process count that is not positive).
 */
export function budgetPlan(input: PlanInput): PlanResult {
  const processes = input.processes ?? 1;
  const apps = input.apps ?? 1;
  if (!(input.tickMs > 0)) throw new Error(`tickMs must be > 0, got ${input.tickMs}`);
  if (!(Number.isInteger(processes) && processes > 0)) throw new Error(`processes must be a positive integer, got ${processes}`);
  if (!(Number.isInteger(apps) && apps > 0)) throw new Error(`apps must be a positive integer, got ${apps}`);
  if (input.runs !== undefined && !(Number.isInteger(input.runs) && input.runs > 0)) throw new Error(`runs must be a positive integer, got ${input.runs}`);
  const rate = (pacedCallsPerSecond(input.budget) * apps) / processes;
  const tick = input.tickMs / 1000;
  const freshRuns = Math.max(0, Math.floor(rate * tick + 1e-9));
  const base = Math.max(1, freshRuns);
  const load = [1, 2, 10, 100].map((factor) => {
    const runs = base * factor;
    const refresh = Math.max(tick, runs / rate);
    return { factor, runs, refreshEverySeconds: round1(refresh), staleSeconds: round1(refresh - tick) };
  });
  const runMs = input.runMs ?? 600_000;
  const per = input.callsPerOperation ?? { send: 1, update: 1, final: 1 };
  const callsPerRun = Math.ceil(runMs / input.tickMs) * per.update + per.send + per.final;
  const perMonth = (calls: number) => (input.monthlyQuota === undefined ? undefined : Math.floor(input.monthlyQuota / calls));
  // One app's fully fresh runs (its processes sharing it): what a planned load is divided by.
  const freshRunsPerApp = Math.floor((pacedCallsPerSecond(input.budget) / processes) * tick + 1e-9);
  const result: PlanResult = {
    callsPerSecond: round1(rate),
    allowedCallsPerSecond: round1((sustainedCallsPerSecond(input.budget) * apps) / processes),
    tickSeconds: tick,
    processes,
    apps,
    ...(input.runs === undefined ? {} : { appsFor: { runs: input.runs, freshRunsPerApp, apps: freshRunsPerApp > 0 ? Math.ceil(input.runs / freshRunsPerApp) : Number.POSITIVE_INFINITY } }),
    freshRuns,
    load,
    callsPerRun,
    callsPerOperation: per,
    runMinutes: round1(runMs / 60_000),
    runsPerMonth: perMonth(callsPerRun),
  };
  if (input.runCallCap === undefined) return result;
  const cap = input.runCallCap;
  const stretchedTick = Math.max(tick, runMs / 1000 / Math.max(1, cap - 2));
  const cappedCalls = Math.min(callsPerRun, cap);
  return { ...result, capped: { cap, tickSeconds: round1(stretchedTick), callsPerRun: cappedCalls, runsPerMonth: perMonth(cappedCalls) } };
}

/** How {@link PlanResult.callsPerRun} is made up, e.g. `600 s ÷ 3 s × 2 requests + send 2 + final 2`. */
function runFormula(plan: PlanResult): string {
  const per = plan.callsPerOperation;
  const updates = `${plan.runMinutes * 60} s ÷ ${plan.tickSeconds} s${per.update === 1 ? '' : ` × ${per.update} requests`}`;
  return `${updates} + send${per.send === 1 ? '' : ` ${per.send}`} + final${per.final === 1 ? '' : ` ${per.final}`}`;
}

/** The plan as the lines `progresscard plan` prints. */
export function formatPlan(label: string, plan: PlanResult): string {
  const lines = [
    `${label}: ${plan.callsPerSecond} calls/s paced (of ${plan.allowedCallsPerSecond}/s allowed, less jitter margins)${plan.apps > 1 ? ` over ${plan.apps} apps` : ''}${plan.processes > 1 ? ` per process (${plan.processes} processes share ${plan.apps > 1 ? 'each' : 'the'} app)` : ''}, tick ${plan.tickSeconds} s`,
    `  fully fresh: ${plan.freshRuns} runs with running tools (⌊${plan.callsPerSecond} × ${plan.tickSeconds}⌋)`,
    ...plan.load.slice(1).map((l) => `  at ${l.factor}× (${l.runs} runs): each card refreshes every ${l.refreshEverySeconds} s (${l.staleSeconds} s stale)`),
    `  a ${plan.runMinutes}-minute run spends about ${plan.callsPerRun} calls (${runFormula(plan)})`,
  ];
  if (plan.appsFor) {
    const a = plan.appsFor;
    lines.push(`  ${a.runs} runs with running tools need ${a.apps} app${a.apps === 1 ? '' : 's'} to stay fully fresh (⌈${a.runs} ÷ ${a.freshRunsPerApp} per app⌉; chats stick to one app each, so leave room for an uneven spread)`);
  }
  if (plan.runsPerMonth !== undefined) lines.push(`  monthly quota allows about ${plan.runsPerMonth} such runs a month`);
  if (plan.capped) {
    const c = plan.capped;
    lines.push(`  with a cap of ${c.cap} calls per run: tick stretched to ${c.tickSeconds} s, ${c.callsPerRun} calls per run${c.runsPerMonth === undefined ? '' : `, about ${c.runsPerMonth} runs a month`}; the final always goes out`);
  }
  return lines.join('\n');
}
