/** One layer around a platform call (a timer, a timeout...): it makes `call` and answers its result. */
export type CallLayer = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * The layers a platform call passes, outermost first: `chainCalls(timeout, timing)(call)` is
 * `timeout(() => timing(call))`. The delivery's chain is timeout → arrival timing → the transport
 * (whose per-message call cap, when the channel has one, wraps the transport itself at
 * registration, so it is the innermost layer): a call that hangs is given up by the timeout and
 * does not skew the timing, which only counts settled calls.
 */
export function chainCalls(...layers: readonly CallLayer[]): CallLayer {
  return <T>(call: () => Promise<T>): Promise<T> => layers.reduceRight<() => Promise<T>>((inner, layer) => () => layer(inner), call)();
}
