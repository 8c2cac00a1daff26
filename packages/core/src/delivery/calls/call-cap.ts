import type { Clock } from '../../shared/clock.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import type { CallLayer } from './call-chain.js';

/**
 * How much longer than the tick a card waits between two progressive updates once it has spent
 * `used` of its `cap` calls: 1 until half the cap is spent, then `cap / (2 × remaining)`, where
 * `remaining = cap − used − 1` keeps one call for the final. So with a cap of 40 the tick doubles
 * at 29 calls, quadruples at 34, and no progressive update goes out once only the final's call is
 * left. Infinity means "final only from here".
 */
export function tickStretch(used: number, cap: number): number {
  const remaining = cap - used - 1;
  if (remaining <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(1, cap / (2 * remaining));
}

/**
 * The call chain's link that keeps a card message within `cap` platform calls (switch
 * `runCallCap`; for a monthly quota: cap = quota ÷ runs expected per month): a progressive update
 * that comes sooner than the stretched tick ({@link tickStretch}) after the card's last call is
 * answered at once without a platform call, and is not counted (the next update carries the latest
 * card, since renders are whole); a final and every send always go out. The calls counted are the
 * card's own count (`CardDeliveryRecord.callsSpent`: every settled call of the message and of its
 * continuation parts, and the extra calls its transport reported), the one its final footer shows
 * against the quota. `tickMs` is the channel's tick, in ms.
 */
export function callCap(cap: number, tickMs: () => number, clock: Clock): CallLayer {
  const lastCallAt = new WeakMap<CardDeliveryRecord, number>();
  return async <T>(call: () => Promise<T>, info: Parameters<CallLayer>[1]): Promise<T> => {
    if (info.kind !== 'card') return call();
    const { record } = info;
    const last = lastCallAt.get(record);
    if (info.skippable && last !== undefined) {
      const stretch = tickStretch(record.callsSpent, cap);
      // Within the stretched tick (or with only the final's call left): a skippable call is an update, whose answer is void.
      if (stretch > 1 && clock.now() - last < stretch * tickMs()) return undefined as T;
    }
    try {
      return await call();
    } finally {
      lastCallAt.set(record, clock.now());
    }
  };
}
