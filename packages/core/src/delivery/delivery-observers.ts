import type { CallFailure, CallFailureKind } from '../plugin/contract.js';
import type { Logger } from '../shared/logger.js';

/**
 * Which platform call a {@link DeliveryEvent} reports:
 * - `send` / `update`: the card's main message was created / edited (a final sent as a fresh
 *   message is a `send`);
 * - `continuation-send` / `continuation-update`: a continuation part (content that did not fit the
 *   main card, sent as a reply to it) was created / edited;
 * - `moved-notice`: after a final went out as a fresh message, the message it left was edited to
 *   point to the new one (best effort, never retried).
 */
export type DeliveryCall = 'send' | 'update' | 'continuation-send' | 'continuation-update' | 'moved-notice';

/** One platform call of a card, as `ProgressCards.on('delivery', listener)` reports it once it settled. */
export interface DeliveryEvent {
  /** Channel id, e.g. `feishu`. */
  readonly channel: string;
  /** The `ProgressCard.id` of the card the call was for. */
  readonly cardId: string;
  /** Which call: see {@link DeliveryCall}. */
  readonly call: DeliveryCall;
  /** Wall time from the start of the transport call to its answer, in ms (budget waits excluded). */
  readonly latencyMs: number;
  readonly result: 'ok' | 'failed';
  /** How a failed call failed, as the plugin's `classify` said (absent when `result` is `ok`). */
  readonly failureKind?: CallFailureKind;
  /** The plugin's description of the failure (status, platform code, message; never a secret). */
  readonly failureDetail?: string;
  /** True when the call carried the run's terminal state. */
  readonly final: boolean;
  /**
   * Which try this was: for a final call of the main message, the how-manieth call spent on the
   * final (`FinalDelivery.attempts` counts the same calls); otherwise 1 plus the failed calls of the
   * same message (or part) since its last success.
   */
  readonly attempt: number;
}

/** Receives every {@link DeliveryEvent}. Called synchronously after each call; keep it cheap. */
export type DeliveryListener = (event: DeliveryEvent) => void;

/**
 * The `delivery` listeners of one composition. A listener that throws (or returns a rejected
 * promise) is logged once, with the first error, and keeps being called; it can never break a
 * delivery or another listener.
 */
export class DeliveryObservers {
  private readonly listeners = new Set<DeliveryListener>();
  private readonly reported = new WeakSet<DeliveryListener>();

  constructor(private readonly logger: Logger) {}

  /** Adds `listener`; returns the function that removes it (idempotent). */
  add(listener: DeliveryListener): () => void {
    // A wrapper per registration, so adding one function twice needs two removals.
    const entry: DeliveryListener = (event) => listener(event);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** Reports a settled call: ok without `failure`, else failed with its kind and detail. Never throws. */
  callSettled(call: Omit<DeliveryEvent, 'result' | 'failureKind' | 'failureDetail'>, failure?: CallFailure): void {
    if (this.listeners.size === 0) return;
    this.emit(failure ? { ...call, result: 'failed', failureKind: failure.kind, failureDetail: failure.detail } : { ...call, result: 'ok' });
  }

  /** Calls every listener with `event`. Never throws. */
  emit(event: DeliveryEvent): void {
    for (const listener of this.listeners) {
      try {
        const returned: unknown = listener(event);
        if (returned instanceof Promise) returned.catch((error: unknown) => this.failed(listener, error));
      } catch (error) {
        this.failed(listener, error);
      }
    }
  }

  private failed(listener: DeliveryListener, error: unknown): void {
    if (this.reported.has(listener)) return;
    this.reported.add(listener);
    this.logger.error('a delivery listener threw; delivery goes on (later errors of this listener are not logged)', {
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
}
