import { timerDelay } from '../../shared/timer-duration.js';
import type { CallFailure, CardTransport } from '../../plugin/contract.js';

/** How long the core waits for a platform call's answer by default (`ChannelSettings.callTimeoutMs`), in ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 15_000;

/** A platform call that did not settle in time. The platform may still apply it later. */
class CallTimeoutError extends Error {
  override readonly name = 'CallTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * Runs one platform call, giving up after `timeoutMs`: the result rejects with a timeout (which
 * {@link classifyCallError} calls `transient`, a call that may still land late). A call that
 * settles after that is ignored (its rejection too). A call that throws at once rejects at once.
 */
export function withCallTimeout<T>(call: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<T>;
  try {
    running = Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeoutError(timeoutMs)), timerDelay(timeoutMs));
  });
  running.catch(() => undefined);
  return Promise.race([running, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The failure of a platform call: a timeout of {@link withCallTimeout} is `transient` (no clear
 * answer: it may have been applied, maybe later); anything else as the transport classifies it,
 * `transient` too when `classify` itself throws (a plugin bug).
 */
export function classifyCallError(transport: CardTransport<unknown>, error: unknown): CallFailure {
  if (error instanceof CallTimeoutError) return { kind: 'transient', detail: `timeout: ${error.message}` };
  try {
    return transport.classify(error);
  } catch (bug) {
    return { kind: 'transient', detail: `classify threw ${String(bug)} for ${String(error)}` };
  }
}
