import { BURST_SPACING_SHARE, budgetSafetyMarginMs, DEFAULT_SLOT_RANK, InMemoryBudgetStore, pacingIntervalMs, rankLimit, SLOT_RANK_POLICY, type BudgetKey, type BudgetStore, type BudgetWindow, type Logger, type SlotRequest } from '@progresscard/core/store';
import type { Redis } from 'ioredis';
import { PAUSE_SCRIPT, RESERVE_SCRIPT } from './budget-script.js';
import { luaCommand, type LuaCommand } from './lua-command.js';

/** Default share of each limit a process keeps to while Redis is away: a quarter. */
export const DEFAULT_FALLBACK_FRACTION = 0.25;

/** Options of a {@link RedisBudgetStore}. */
export interface RedisBudgetStoreOptions {
  /** Prefix of every Redis key (default `progresscard:`). */
  readonly keyPrefix?: string;
  /**
   * While Redis is away, this process paces its calls on a local budget with each window's limit
   * times this fraction (at least 1 call per window; default 0.25): with up to 1 / fraction processes
   * the app stays within its limits through an outage.
   */
  readonly fallbackFraction?: number;
  /** Told once per outage (default: nowhere). */
  readonly logger?: Logger;
}

/**
 * A `BudgetStore` in Redis: every process of an app that uses the same Redis draws from the same
 * paced budgets, so together they keep within the platform's limits (Feishu 50/s and 1000/min per
 * app and API, 5/s per message; DingTalk 20 QPS per app and API: whatever windows the plugins'
 * budget keys declare). A reservation over several keys is one Lua script, atomic across processes.
 * Times are epoch ms from each process's clock: hosts sharing a Redis need synchronised clocks (NTP).
 *
 * When Redis does not answer (down, restarting, unreachable), calls go on under a local
 * `InMemoryBudgetStore` at `fallbackFraction` of each limit, with one warning through the logger;
 * the next call after Redis is back uses Redis again.
 */
export class RedisBudgetStore implements BudgetStore {
  private readonly prefix: string;
  private readonly fraction: number;
  private readonly fallback = new InMemoryBudgetStore();
  private readonly scaled = new WeakMap<readonly BudgetWindow[], readonly BudgetWindow[]>();
  private degraded = false;
  private readonly reserveScript: LuaCommand;
  private readonly pauseScript: LuaCommand;

  /** @throws Error naming `fallbackFraction` when it is not in (0, 1]. */
  constructor(
    private readonly client: Redis,
    private readonly options: RedisBudgetStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? 'progresscard:';
    this.fraction = options.fallbackFraction ?? DEFAULT_FALLBACK_FRACTION;
    if (!(this.fraction > 0 && this.fraction <= 1)) throw new Error(`fallbackFraction = ${JSON.stringify(options.fallbackFraction)}: must be a number in (0, 1]`);
    this.reserveScript = luaCommand(client, 'progresscardReserve', RESERVE_SCRIPT);
    this.pauseScript = luaCommand(client, 'progresscardPause', PAUSE_SCRIPT);
  }

  /** True while calls are paced on the local fallback budget (Redis did not answer). */
  get usingFallback(): boolean {
    return this.degraded;
  }

  /** @throws Error (as a rejection) when a window's `limit` or `intervalMs` is not a positive integer. */
  reserve(request: SlotRequest): Promise<number> {
    return this.run(request, true);
  }

  /** @throws Error (as a rejection) when a window's `limit` or `intervalMs` is not a positive integer. */
  nextDeparture(request: SlotRequest): Promise<number> {
    return this.run(request, false);
  }

  async pauseUntil(key: string, epochMs: number): Promise<void> {
    await this.fallback.pauseUntil(key, epochMs);
    if (this.client.status !== 'ready') return this.outage('Redis is not connected');
    try {
      await this.pauseScript(1, `${this.prefix}pause:${key}`, String(epochMs));
      this.recovered();
    } catch (error) {
      this.outage(error);
    }
  }

  private async run(request: SlotRequest, reserve: boolean): Promise<number> {
    for (const { key, windows } of request.keys) checkWindows(key, windows);
    if (this.client.status === 'ready') {
      try {
        const departure = Number(await this.reserveScript(request.keys.length * 3, ...this.scriptKeys(request), ...this.scriptArgs(request, reserve)));
        this.recovered();
        return departure;
      } catch (error) {
        this.outage(error);
      }
    } else {
      this.outage('Redis is not connected');
    }
    const local: SlotRequest = { ...request, keys: request.keys.map(({ key, windows }) => ({ key, windows: this.fallbackWindows(windows) })) };
    return reserve ? this.fallback.reserve(local) : this.fallback.nextDeparture(local);
  }

  private scriptKeys(request: SlotRequest): string[] {
    return request.keys.flatMap(({ key }) => [`${this.prefix}budget:${key}`, `${this.prefix}pause:${key}`, `${this.prefix}paced:${key}`]);
  }

  private scriptArgs(request: SlotRequest, reserve: boolean): string[] {
    const rank = request.rank ?? DEFAULT_SLOT_RANK;
    const args = [String(request.notBefore), String(Math.max(0, request.arrivalDelayMs)), reserve ? '1' : '0', SLOT_RANK_POLICY[rank].burst ? '1' : '0', String(BURST_SPACING_SHARE), request.replacesArrival === undefined ? '' : String(request.replacesArrival)];
    for (const { windows } of request.keys) {
      args.push(String(pacingIntervalMs(windows)), String(windows.length));
      for (const window of windows) args.push(String(window.limit), String(rankLimit(window.limit, rank, window.intervalMs, request.unsentCards)), String(window.intervalMs + budgetSafetyMarginMs(window.intervalMs)));
    }
    return args;
  }

  private fallbackWindows(windows: BudgetKey['windows']): BudgetKey['windows'] {
    let scaled = this.scaled.get(windows);
    if (!scaled) {
      scaled = windows.map((window) => ({ limit: Math.max(1, Math.floor(window.limit * this.fraction)), intervalMs: window.intervalMs }));
      this.scaled.set(windows, scaled);
    }
    return scaled;
  }

  private outage(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.logger?.warn(
      `Redis budget store unavailable; pacing this process at ${this.fraction} of each limit until Redis answers again`,
      { error: error instanceof Error ? error.message : String(error) },
    );
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.logger?.debug('Redis budget store answers again; budgets are shared again');
  }
}

/** @throws Error naming the key, window and field when a limit or interval is not a positive integer (as the in-memory store). */
function checkWindows(key: string, windows: BudgetKey['windows']): void {
  if (windows.length === 0) throw new Error(`budget key ${key}: windows must not be empty`);
  for (const [index, window] of windows.entries()) {
    for (const field of ['limit', 'intervalMs'] as const) {
      const value = window[field];
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new Error(`budget key ${key}: windows[${index}].${field} must be a positive integer, got ${JSON.stringify(value)}`);
      }
    }
  }
}
