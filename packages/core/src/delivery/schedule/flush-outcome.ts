import type { BudgetKey } from '../../plugin/contract.js';

/**
 * What a card asks for after one flush decision or one platform call, as data: the channel
 * dispatcher applies it (the parts that decide never call back into the dispatcher).
 * - `wait`: nothing more now; the card waits for its next change (or for a probe set already),
 *   or, with `wakeAt` (epoch ms), at the latest until then: a flush is requested at that time as
 *   if the card had changed (unlike `again`'s not-before time, a change before it goes at once);
 * - `again`: flush the card again, not before `notBefore` (epoch ms; now when absent);
 * - `settle`: the final settled: report it once (`ok`, and `error` when not); `causeLogged` when
 *   the cause was logged already (a channel stop), so the report adds no second line.
 */
export type FlushOutcome =
  | { readonly next: 'wait'; readonly wakeAt?: number }
  | { readonly next: 'again'; readonly notBefore?: number }
  | { readonly next: 'settle'; readonly ok: boolean; readonly error?: string; readonly causeLogged?: boolean };

/** {@link FlushOutcome} `wait`. */
export const WAIT: FlushOutcome = { next: 'wait' };

/**
 * {@link FlushOutcome} `wait` for a call the call cap held back until `until` (epoch ms): the card
 * flushes again then; `Infinity` (only the final's call is left) waits for the next change.
 */
export function heldBack(until: number): FlushOutcome {
  return Number.isFinite(until) ? { next: 'wait', wakeAt: until } : WAIT;
}

/** {@link FlushOutcome} `again`, at once or not before `notBefore` (epoch ms). */
export function again(notBefore?: number): FlushOutcome {
  return notBefore === undefined ? { next: 'again' } : { next: 'again', notBefore };
}

/** {@link FlushOutcome} `settle`. */
export function settle(ok: boolean, error?: string, causeLogged = false): FlushOutcome {
  return { next: 'settle', ok, ...(error !== undefined && { error }), ...(causeLogged && { causeLogged }) };
}

/** One platform call a flush decided on: the budgets it draws from, and the call, which answers what the card needs next (never rejects). */
export interface FlushCall {
  readonly keys: readonly BudgetKey[];
  send(): Promise<FlushOutcome>;
}

/** A flush decision: a call to make once a slot under its keys is due, or an outcome without a call. */
export type FlushDecision = FlushCall | FlushOutcome;

/** True when `decision` is a call to make. */
export function isFlushCall(decision: FlushDecision): decision is FlushCall {
  return 'keys' in decision;
}
