import type { Clock } from './clock.js';

/** A canned platform answer. */
export interface FaultResponse {
  /** HTTP status, 100–599. */
  readonly status: number;
  /** JSON body, e.g. `{ code: 230020, msg: 'This operation triggers the frequency limit.' }`. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One fault rule. A call matches when its route equals `route` and every given condition holds:
 * - `key`: the call is about this message/card id;
 * - `nth`: it is the n-th call (1-based) of the route, counted per key when `key` or `perKey` is set;
 * - `window`: the emulator clock, measured from the injector's origin, is in `[fromMs, toMs)`;
 * - `times`: the rule has matched fewer than `times` calls so far.
 * A matching rule answers `respond` instead of the real handler and/or delays the call by `latencyMs`.
 */
export interface FaultRule {
  /** Route name, e.g. `im.message.patch` (see the emulator's route list). */
  readonly route: string;
  readonly key?: string;
  readonly nth?: number;
  /** Count `nth` separately for every message/card id. */
  readonly perKey?: boolean;
  /** Time window in ms since the origin, `fromMs` inclusive, `toMs` exclusive. */
  readonly window?: { readonly fromMs: number; readonly toMs: number };
  /** Stop after matching this many calls. */
  readonly times?: number;
  readonly respond?: FaultResponse;
  /**
   * Added delay in ms (real time) before the call is handled and answered. The call is applied
   * after the delay whether or not the client still waits: with a delay longer than the client's
   * timeout it is a late apply (the client saw a timeout, the platform applied the call later,
   * maybe over newer calls), and for a create an answer that was lost.
   */
  readonly latencyMs?: number;
  /** Free text shown in listings. */
  readonly label?: string;
}

/** A rule as installed: its id and how many calls it matched. */
export interface InstalledFault extends FaultRule {
  readonly id: string;
  readonly hits: number;
}

/** What the injector decided for one call. */
export interface FaultDecision {
  /** The call's number on its route (1-based), and on its route for its key. */
  readonly callNumber: number;
  readonly keyCallNumber?: number;
  /** Sum of the latency of every matching rule, ms. */
  readonly latencyMs: number;
  /** The answer of the first matching rule that has one. */
  readonly response?: FaultResponse;
  /** Id of the rule that supplied `response`. */
  readonly responseRuleId?: string;
  readonly matchedRuleIds: readonly string[];
}

/** Thrown by {@link FaultInjector.add} for a malformed rule; names the field and value. */
export class FaultRuleError extends Error {
  override readonly name = 'FaultRuleError';
}

/**
 * Counts calls per route (and per route and key) and answers them from user-installed rules.
 * Time windows are read from the injected clock relative to `origin` (epoch ms, default: creation time).
 */
export class FaultInjector {
  private rules: Array<FaultRule & { id: string; hits: number }> = [];
  private readonly routeCalls = new Map<string, number>();
  private readonly keyCalls = new Map<string, number>();
  private nextId = 1;
  private originMs: number;

  /**
   * @param knownRoutes when given, {@link add} refuses rules for other routes.
   */
  constructor(
    private readonly clock: Clock,
    private readonly knownRoutes?: readonly string[],
  ) {
    this.originMs = clock();
  }

  /** Epoch ms from which rule windows are measured. */
  get origin(): number {
    return this.originMs;
  }

  /** Moves the origin of rule windows (epoch ms), e.g. to the start of a scripted run. */
  setOrigin(epochMs: number): void {
    if (!Number.isFinite(epochMs)) throw new FaultRuleError(`origin must be a finite epoch ms, got ${String(epochMs)}`);
    this.originMs = epochMs;
  }

  /** Installs a rule; returns its id. @throws FaultRuleError naming the bad field. */
  add(rule: FaultRule): string {
    validateRule(rule, this.knownRoutes);
    const id = `fault_${this.nextId++}`;
    this.rules.push({ ...rule, id, hits: 0 });
    return id;
  }

  /** Removes one rule; false when no rule has that id. */
  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== before;
  }

  /** Installed rules with their hit counts. */
  list(): InstalledFault[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Removes every rule (call counters keep running). */
  clear(): void {
    this.rules = [];
  }

  /** Calls seen so far on `route` (for `key` when given). */
  callCount(route: string, key?: string): number {
    return key === undefined ? (this.routeCalls.get(route) ?? 0) : (this.keyCalls.get(`${route}\u0000${key}`) ?? 0);
  }

  /** Counts one call and returns what the rules say about it. Call once per incoming request. */
  onCall(route: string, key?: string): FaultDecision {
    const callNumber = (this.routeCalls.get(route) ?? 0) + 1;
    this.routeCalls.set(route, callNumber);
    let keyCallNumber: number | undefined;
    if (key !== undefined) {
      keyCallNumber = (this.keyCalls.get(`${route}\u0000${key}`) ?? 0) + 1;
      this.keyCalls.set(`${route}\u0000${key}`, keyCallNumber);
    }
    const sinceOrigin = this.clock() - this.originMs;
    let latencyMs = 0;
    let response: FaultResponse | undefined;
    let responseRuleId: string | undefined;
    const matched: string[] = [];
    for (const rule of this.rules) {
      if (rule.route !== route) continue;
      if (rule.key !== undefined && rule.key !== key) continue;
      if (rule.nth !== undefined) {
        const counted = rule.key !== undefined || rule.perKey ? keyCallNumber : callNumber;
        if (counted !== rule.nth) continue;
      }
      if (rule.window && !(sinceOrigin >= rule.window.fromMs && sinceOrigin < rule.window.toMs)) continue;
      if (rule.times !== undefined && rule.hits >= rule.times) continue;
      rule.hits += 1;
      matched.push(rule.id);
      latencyMs += rule.latencyMs ?? 0;
      if (rule.respond && !response) {
        response = rule.respond;
        responseRuleId = rule.id;
      }
    }
    return { callNumber, keyCallNumber, latencyMs, response, responseRuleId, matchedRuleIds: matched };
  }

  /** Clears rules and call counters and moves the origin to now. */
  reset(): void {
    this.rules = [];
    this.routeCalls.clear();
    this.keyCalls.clear();
    this.originMs = this.clock();
  }
}

function validateRule(rule: FaultRule, knownRoutes?: readonly string[]): void {
  const bad = (field: string, value: unknown, why: string) =>
    new FaultRuleError(`fault rule: ${field} = ${JSON.stringify(value) ?? String(value)} (${why})`);
  if (typeof rule.route !== 'string' || rule.route === '') throw bad('route', rule.route, 'must be a non-empty route name');
  if (knownRoutes && !knownRoutes.includes(rule.route)) throw bad('route', rule.route, `unknown route; known: ${knownRoutes.join(', ')}`);
  if (rule.nth !== undefined && (!Number.isInteger(rule.nth) || rule.nth < 1)) throw bad('nth', rule.nth, 'must be an integer ≥ 1');
  if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1)) throw bad('times', rule.times, 'must be an integer ≥ 1');
  if (rule.window) {
    const { fromMs, toMs } = rule.window;
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs <= fromMs) throw bad('window', rule.window, 'needs finite fromMs < toMs');
  }
  if (rule.latencyMs !== undefined && (!Number.isFinite(rule.latencyMs) || rule.latencyMs < 0)) throw bad('latencyMs', rule.latencyMs, 'must be ≥ 0');
  if (rule.respond) {
    const s = rule.respond.status;
    if (!Number.isInteger(s) || s < 100 || s > 599) throw bad('respond.status', s, 'must be an HTTP status 100–599');
  }
  if (!rule.respond && !rule.latencyMs) throw bad('respond', rule.respond, 'a rule needs respond and/or latencyMs > 0');
}
