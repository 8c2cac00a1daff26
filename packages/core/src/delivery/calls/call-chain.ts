import type { CardDeliveryRecord } from '../card-delivery-record.js';

/**
 * What a link of the call chain knows of the platform call it passes on:
 * - `card`: a send or update of a card message, of one of its continuation parts or of its native
 *   stream (`record` is the card's); `skippable` marks a progressive call — an update of a whole
 *   render, or a stream's append of new text — which a link may answer without a platform call:
 *   the caller then does not take it as shown (a later call carries the card's latest state, or the
 *   text held back). A final, a call showing a question, a send and a stream's start, stop or
 *   keep-alive are never skippable.
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
