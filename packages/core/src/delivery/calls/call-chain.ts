import type { CardDeliveryRecord } from '../card-delivery-record.js';

/**
 * What a link of the call chain knows of the platform call it passes on:
 * - `card`: a send or update of a card message or of one of its continuation parts (`record` is
 *   the card's); `skippable` marks a progressive update of a whole render, which a link may answer
 *   without a platform call (the next update carries the latest card). A stream's append is never
 *   skippable: it carries only its own text.
 * - `moved-notice`: the final update of a message the card moved away from.
 * - `credentials`, `reply` (a completion ping), `read` (a count of messages), `upload` (a file):
 *   a channel's calls beside its cards' messages.
 */
export type CallInfo =
  | { readonly kind: 'card'; readonly record: CardDeliveryRecord; readonly skippable: boolean }
  | { readonly kind: 'moved-notice' | 'credentials' | 'reply' | 'read' | 'upload' };

/**
 * One link around a platform call (a timer, a timeout, the call cap...): it makes `call` and
 * answers its result, or, for a `skippable` call only, answers `undefined` without making it.
 */
export type CallLayer = <T>(call: () => Promise<T>, info: CallInfo) => Promise<T>;

/**
 * The links a platform call passes, outermost first: `chainCalls(cap, timeout, timing)(call, info)`
 * is `cap(() => timeout(() => timing(call, info), info), info)`. The delivery's chain is call cap →
 * timeout → arrival timing → the transport: a progressive update the cap holds back takes no
 * timeout and no timing sample; a call that hangs is given up by the timeout and does not skew
 * the timing, which only counts settled calls.
 */
export function chainCalls(...layers: readonly CallLayer[]): CallLayer {
  return <T>(call: () => Promise<T>, info: CallInfo): Promise<T> =>
    layers.reduceRight<() => Promise<T>>((inner, layer) => () => layer(inner, info), call)();
}
