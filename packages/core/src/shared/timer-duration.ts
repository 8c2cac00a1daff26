import { showValue } from './show-value.js';

/**
 * The longest delay Node's `setTimeout` / `setInterval` honour: 2 147 483 647 ms (2^31 − 1, about
 * 24.8 days). A longer delay overflows: Node prints a `TimeoutOverflowWarning` and fires after
 * 1 ms (https://nodejs.org/api/timers.html#settimeoutcallback-delay-args).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Checks a configured duration that reaches a timer: an integer from `min` (default 1) to
 * {@link MAX_TIMER_MS}. Returns it unchanged.
 * @param field the option's name as the user wrote it, e.g. `feishu callTimeoutMs` or `stall.stallMs`.
 * @throws Error naming the field and value, e.g.
 *   `feishu callTimeoutMs = 2147483648: at most 2147483647 ms (setTimeout's limit)`.
 */
export function checkTimerMs(field: string, value: unknown, min: 0 | 1 = 1): number {
  const shown = showValue(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new Error(`${field} = ${shown}: must be an integer number of ms${min === 0 ? ' (0 or more)' : ' (1 or more)'}`);
  }
  if (value < min) throw new Error(`${field} = ${shown}: must be at least ${min} ms`);
  if (value > MAX_TIMER_MS) throw new Error(`${field} = ${shown}: at most ${MAX_TIMER_MS} ms (setTimeout's limit)`);
  return value;
}

/**
 * A computed wait made safe for a timer: at least 0 and at most {@link MAX_TIMER_MS}. Callers whose
 * wait was cut re-check on wake-up and wait again (a chained wait), so a time far in the future
 * (an epoch-based `notBefore`) never fires early.
 */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/** Resolves after `ms` (any length: a wait over {@link MAX_TIMER_MS} is chained in steps within the limit). */
export async function sleepMs(ms: number): Promise<void> {
  let left = ms;
  while (left > 0) {
    const step = Math.min(left, MAX_TIMER_MS);
    await new Promise((resolve) => setTimeout(resolve, step));
    left -= step;
  }
}
