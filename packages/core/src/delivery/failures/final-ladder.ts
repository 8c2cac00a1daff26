import type { CallFailure, CallFailureKind } from '../../plugin/contract.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import { again, settle, type FlushOutcome } from '../schedule/flush-outcome.js';
import type { RetrySettings } from './retry-settings.js';

/** One rung of the final's ladder: the final is tried once, then once more after each delay. */
export type FinalLadderRung =
  | { readonly rung: 'final-in-place' | 'final-fresh'; readonly delaysMs: readonly number[] }
  | { readonly rung: 'undeliverable' };

/**
 * The final's retry ladder as data: tries on the card's message with the given backoffs, then on
 * a fresh message with the same backoffs, then give up. Default: in place 1/2/4 s, fresh 1/2/4 s
 * (`RetrySettings.finalRetryDelaysMs`).
 */
function finalLadder(settings: RetrySettings): readonly FinalLadderRung[] {
  return [
    { rung: 'final-in-place', delaysMs: settings.finalRetryDelaysMs },
    { rung: 'final-fresh', delaysMs: settings.finalRetryDelaysMs },
    { rung: 'undeliverable' },
  ];
}

/**
 * Whether a failure that ends a rung moves the final to a fresh message when it climbs to
 * `final-fresh`. A rate limit says nothing against the message: a fresh one would be a duplicate
 * card and leave this one spinning, so the next round runs on the same message.
 */
const FRESH_MESSAGE_AFTER: Readonly<Record<CallFailureKind, boolean>> = {
  'rate-limited': false,
  gone: true,
  rejected: true,
  // Never reached: refused credentials end the final at once (see `stop-channel`).
  auth: false,
  transient: true,
  // Never reached: a spent quota ends the final at once (see `stop-channel`).
  quota: false,
  // Never reached: an unreachable target ends the final at once (see `stop-card`).
  target: false,
  // Outside a stream an ended stream is a message that takes no more edits, like `gone`.
  'stream-ended': true,
  // Never reached: a stop on the platform settles the final at once (see `platform-stop`).
  'stopped-by-user': false,
  // The update route lacks its scope: the final can only go out as a fresh message.
  'missing-scope': true,
};

/**
 * The walk of the final's ladder ({@link finalLadder}): where a failed try of the final goes next
 * (the same rung after its delay, the next rung, or give up), the same for a final's continuation
 * part, the re-assert of a final an older call may have landed over, and the retries of closing
 * the message a final moved away from. The card's own state change on a climb is
 * `CardDeliveryRecord.climbTo`; only this walk calls it.
 */
export class FinalLadder {
  private readonly rungs: readonly FinalLadderRung[];

  constructor(private readonly retry: RetrySettings) {
    this.rungs = finalLadder(retry);
  }

  /**
   * A try of the final failed at `now` and the failure table asks to wait `waitMs` (a backoff or
   * a rate limit's retry-after): retry on this rung after its next delay (not sooner than the
   * wait), else climb to the next rung, else give up with the failure's detail.
   */
  afterFailure(record: CardDeliveryRecord, failure: CallFailure, now: number, waitMs: number): FlushOutcome {
    const index = Math.max(0, this.rungs.findIndex((step) => step.rung === record.phase));
    const rung = this.rungs[index]!;
    const delays = rung.rung === 'undeliverable' ? [] : rung.delaysMs;
    if (record.finalAttempts <= delays.length) return again(now + Math.max(waitMs, delays[record.finalAttempts - 1]!));
    const next = this.rungs[index + 1];
    if (!next || next.rung === 'undeliverable') return settle(false, failure.detail);
    // A final the message accepted already and that is only sent again to make sure (an older call
    // may have landed over it, or an earlier try's message was returned with older content) stays
    // on its message: a fresh one would show the final twice if the old one cannot be closed.
    record.climbTo(next.rung, FRESH_MESSAGE_AFTER[failure.kind] && !record.finalWasAccepted);
    return again(now + waitMs);
  }

  /** The card's message can no longer be updated (its update refused for a scope): the final goes out as a fresh message, a send. */
  toFreshMessage(record: CardDeliveryRecord): void {
    record.climbTo('final-fresh', true);
  }

  /**
   * A continuation part of the final failed for the `failures`-th time in a row: it gets one try
   * plus one per final retry delay (not sooner than `waitMs`), then is given up (the final's report
   * names it) and the card flushes on.
   */
  partAfterFailure(record: CardDeliveryRecord, index: number, failures: number, now: number, waitMs: number): FlushOutcome {
    const delays = this.retry.finalRetryDelaysMs;
    if (failures <= delays.length) return again(now + Math.max(waitMs, delays[failures - 1]!));
    // The main message is cut before this part and says what was not delivered (`ContinuationDispatch.decorate`).
    record.parts.giveUp(index);
    return again();
  }

  /**
   * The final is on the message with all its parts at `now`: settle it, or first send it once more
   * when an older call may have landed over it (once no such call can land any more).
   */
  shown(record: CardDeliveryRecord, now: number): FlushOutcome {
    const reassertAt = record.lateCalls.finalComplete(now);
    return reassertAt === undefined ? settle(true) : again(reassertAt);
  }

  /**
   * Retries of closing the message a final moved away from: the final's delays, then the outage
   * probes'. While the first message may show the final too, giving up its close early leaves the
   * chat with the final twice (a 5xx run outlasting the final's delays, which moved the final to
   * the fresh message in the first place).
   */
  get movedMessageCloseDelaysMs(): readonly number[] {
    return [...this.retry.finalRetryDelaysMs, ...this.retry.probeDelaysMs];
  }
}
