import type { Clock } from './clock.js';

/** Whether the emulator carried out a call. */
export type CallOutcome = 'accepted' | 'rejected';

/** One API call as the emulator saw it. */
export interface CallRecord {
  /** 1-based position among every call of this emulator. */
  readonly seq: number;
  /** Epoch ms (emulator clock) at which the call was answered. */
  readonly at: number;
  /** Epoch ms (emulator clock) at which the call arrived, when the emulator recorded it. */
  readonly receivedAt?: number;
  /** Route name, e.g. `im.message.patch`. */
  readonly route: string;
  /** The message/card id the call was about (the created one for sends), if any. */
  readonly key?: string;
  readonly outcome: CallOutcome;
  /** HTTP status answered. */
  readonly status: number;
  /** Platform `code` answered (0 = success). */
  readonly code: number;
  readonly msg?: string;
  /** The parsed request body (secrets removed by the caller). */
  readonly request?: unknown;
  /** The parsed card the call carried, when there was one. */
  readonly card?: unknown;
  /** Id of the fault rule that produced the answer, when injected. */
  readonly faultId?: string;
}

/** Calls and their outcomes on one route. */
export interface RouteCounts {
  readonly calls: number;
  readonly accepted: number;
  readonly rejected: number;
}

/** Filter for {@link CallHistory.list}. */
export interface CallFilter {
  readonly route?: string;
  readonly key?: string;
  readonly outcome?: CallOutcome;
}

/** Append-only log of every call an emulator answered. */
export class CallHistory {
  private readonly records: CallRecord[] = [];

  constructor(private readonly clock: Clock) {}

  /** Appends a call stamped with the clock; returns the stored record. */
  record(call: Omit<CallRecord, 'seq' | 'at'>): CallRecord {
    const stored: CallRecord = { seq: this.records.length + 1, at: this.clock(), ...call };
    this.records.push(stored);
    return stored;
  }

  /** Calls in arrival order, optionally filtered. */
  list(filter: CallFilter = {}): CallRecord[] {
    return this.records.filter(
      (r) =>
        (filter.route === undefined || r.route === filter.route) &&
        (filter.key === undefined || r.key === filter.key) &&
        (filter.outcome === undefined || r.outcome === filter.outcome),
    );
  }

  /** Calls / accepted / rejected per route name. */
  counts(): Record<string, RouteCounts> {
    const out: Record<string, { calls: number; accepted: number; rejected: number }> = {};
    for (const r of this.records) {
      out[r.route] ??= { calls: 0, accepted: 0, rejected: 0 };
      const c = out[r.route];
      c.calls += 1;
      c[r.outcome] += 1;
    }
    return out;
  }

  /** Forgets every call. */
  clear(): void {
    this.records.length = 0;
  }
}
