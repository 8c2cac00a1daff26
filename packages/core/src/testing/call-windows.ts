/**
 * The most calls that fall in any window of `windowMs` (a window holds the times `t` with
 * `start <= t < start + windowMs`): what a platform's "at most N calls per window" limit counts.
 * `times` are epoch ms in any order.
 */
export function maxCallsInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}
