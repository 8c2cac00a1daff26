import type { CardView } from '../../card/view.js';
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
 * The call cap of a channel (switch `runCallCap`; for a monthly quota: cap = quota ÷ runs expected
 * per month): its link of the call chain ({@link CallCap.layer}), and when it lets a card's next
 * progressive call go ({@link CallCap.nextProgressAt}).
 */
export interface CallCap {
  /**
   * The link: a progressive call (`skippable`: an update of a whole render, a stream's append of
   * new text) that comes before {@link nextProgressAt} is answered at once without a platform call
   * and is not counted. The caller must not take that answer as shown: the card's latest state goes
   * out in a later call (a render is whole; a stream's next append carries the text held back).
   * A roll-over's fresh stream start is progressive too (it would only carry held text). A final,
   * a question, a send, a card's first stream start, and a stream's stop always go out. A stream's
   * keep-alive counts like any call and goes only while progress may go: once the cap holds it,
   * the stream dispatch closes the stream (its roll-over stop) instead of keeping it alive.
   */
  readonly layer: CallLayer;
  /**
   * Epoch ms from which a progressive call of `record` goes out: the card's last call plus the
   * stretched tick ({@link tickStretch}); `-Infinity` while the tick is not stretched, `Infinity`
   * once only the final's call is left.
   */
  nextProgressAt(record: CardDeliveryRecord): number;
}

/**
 * The {@link CallCap} that keeps a card message within `cap` platform calls. The calls counted are
 * the card's own count (`CardDeliveryRecord.callsSpent`: every settled call of the message, of its
 * continuation parts and of its native stream — starts, appends, stops — and the extra calls its
 * transport reported), the one its final footer shows against the quota. `tickMs` is the channel's
 * tick, in ms.
 */
export function callCap(cap: number, tickMs: () => number, clock: Clock): CallCap {
  const lastCallAt = new WeakMap<CardDeliveryRecord, number>();
  const nextProgressAt = (record: CardDeliveryRecord): number => {
    const last = lastCallAt.get(record);
    if (last === undefined) return Number.NEGATIVE_INFINITY;
    const stretch = tickStretch(record.callsSpent, cap);
    if (stretch <= 1) return Number.NEGATIVE_INFINITY;
    return last + stretch * tickMs();
  };
  const layer: CallLayer = async <T>(call: () => Promise<T>, info: Parameters<CallLayer>[1]): Promise<T> => {
    if (info.kind !== 'card') return call();
    const { record } = info;
    // Before the stretched tick (or with only the final's call left): a progressive call is held back, its answer void.
    if (info.skippable && clock.now() < nextProgressAt(record)) return undefined as T;
    try {
      return await call();
    } finally {
      lastCallAt.set(record, clock.now());
    }
  };
  return { layer, nextProgressAt };
}

/**
 * True when a call of `record` showing `view` is a progressive one the call cap may hold back: not
 * the final, not a probe of a paused card, and not one that shows a new question or takes an
 * answered one's buttons away (a question must reach the user whatever the cap: the run waits for
 * the answer). Later updates while the same question stays open are progressive.
 */
export function isProgressive(record: CardDeliveryRecord, final: boolean, view: CardView): boolean {
  return !final && record.phase === 'progressive' && view.controls?.pending?.id === record.shownQuestion;
}
