import { checkTimerMs } from '../shared/timer-duration.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { Locale } from '../card/view.js';

/** Options of `ProgressCards.shutdown`. */
export interface ShutdownOptions {
  /** Shown on cards still running, which end as cancelled (default: "interrupted by a restart" in the card's language). */
  readonly reason?: string;
  /**
   * Longest wait for the finals, in ms (default 8000: under the 10 s a container runtime usually
   * grants after SIGTERM). Then no platform call starts any more; a call already in flight is
   * answered first (each is bounded by its channel's `callTimeoutMs`), and its answer may still
   * deliver its final. Finals not settled then are reported `{ ok: false }` with an error saying so,
   * in `shutdown()`'s result and in each card's `finalDelivery` alike, and nothing is sent after
   * `shutdown()` resolved. Worst case: `deadlineMs` plus the longest `callTimeoutMs`.
   */
  readonly deadlineMs?: number;
}

/** Default of {@link ShutdownOptions.deadlineMs}. */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 8000;

/** The reason a card still running at shutdown ends with, by language. */
export const INTERRUPTED_REASONS: Readonly<Record<Locale, string>> = {
  'zh-CN': '进程重启，任务已中断',
  en: 'interrupted by a restart',
};

/**
 * Reads `shutdown`'s argument: a reason (the older form) or {@link ShutdownOptions}.
 * @throws Error naming `deadlineMs` and its value when it is not an integer from 0 to 2 147 483 647
 *   ms (setTimeout's limit).
 */
export function shutdownOptions(input: string | ShutdownOptions | undefined): { reason?: string; deadlineMs: number } {
  const options = typeof input === 'string' ? { reason: input } : (input ?? {});
  const deadlineMs = options.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
  checkTimerMs('shutdown deadlineMs', deadlineMs, 0);
  return { reason: options.reason, deadlineMs };
}

/** `final`, or after `deadlineMs` a report that the final had not settled by the deadline. */
export function finalWithin(final: Promise<FinalDelivery>, deadlineMs: number, status: () => FinalDelivery['status']): Promise<FinalDelivery> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<FinalDelivery>((resolve) => {
    timer = setTimeout(() => resolve({
      ok: false,
      status: status(),
      freshMessage: false,
      attempts: 0,
      error: `final not delivered within the shutdown deadline (${deadlineMs} ms)`,
      continuations: { delivered: 0, total: 0 },
    }), deadlineMs);
  });
  return Promise.race([final, deadline]).finally(() => clearTimeout(timer));
}

/** What {@link installShutdownHandlers} needs of a composition. */
interface ShutsDown {
  shutdown(options?: ShutdownOptions): Promise<unknown>;
}

/** Options of {@link installShutdownHandlers}. */
export interface ShutdownHandlerOptions extends ShutdownOptions {
  /** Signals handled (default SIGTERM and SIGINT). */
  readonly signals?: readonly NodeJS.Signals[];
  /**
   * Called once the cards are shut down (default: the handlers are removed and the signal is
   * raised again, so the process ends as it would have without them).
   */
  readonly exit?: (signal: NodeJS.Signals) => void;
}

/**
 * Opt-in: on SIGTERM or SIGINT, `cards.shutdown({ deadlineMs })` ends the cards still running as
 * interrupted and waits (bounded) for their finals, then the process ends as the signal asks. A
 * second signal while shutting down ends the process at once.
 * @returns a function that removes the handlers.
 */
export function installShutdownHandlers(cards: ShutsDown, options: ShutdownHandlerOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let shuttingDown = false;
  const uninstall = () => {
    for (const signal of signals) process.off(signal, handler);
  };
  const exit = options.exit ?? ((signal: NodeJS.Signals) => {
    uninstall();
    process.kill(process.pid, signal);
  });
  function handler(signal: NodeJS.Signals): void {
    if (shuttingDown) {
      exit(signal);
      return;
    }
    shuttingDown = true;
    void cards.shutdown({ reason: options.reason, deadlineMs: options.deadlineMs }).catch(() => undefined).then(() => exit(signal));
  }
  for (const signal of signals) process.on(signal, handler);
  return uninstall;
}
