import type { CardView } from '../../card/view.js';
import type { CallFailure, CardRenderer, CardTransport, MessageRef } from '../../plugin/contract.js';
import { classifyCallError } from '../calls/call-timeout.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';

/** The note on a given-up message, by whether the fresh card with the result is known to exist. */
const NOTICE = {
  sent: {
    'zh-CN': '（这张卡片无法再更新，结果已发送为下方的新卡片。）',
    en: '(This card could not be updated any more; the result was sent as a new card below.)',
  },
  uncertain: {
    'zh-CN': '（这张卡片无法再更新，结果可能未能送达。）',
    en: '(This card could not be updated any more; the result may not have been delivered.)',
  },
} as const;

/**
 * The view shown on a message that was given up for a fresh one: the final status and a note,
 * without the answer (so the chat does not hold the answer twice). The note points to the new
 * card only when it exists (`freshCardExists`: the platform accepted it); else it says the result
 * may not have been delivered.
 */
function movedNoticeView(finalView: CardView, freshCardExists: boolean): CardView {
  const notice = NOTICE[freshCardExists ? 'sent' : 'uncertain'][finalView.locale];
  return { ...finalView, answer: notice, thinking: '', tools: [], hasRunningTools: false };
}

/** Failure kinds after which closing the given-up message is not tried again: it is gone, or every call would fail alike (`auth` after one credential refresh). */
const GIVE_UP_AFTER: ReadonlySet<CallFailure['kind']> = new Set(['gone', 'auth', 'quota', 'missing-scope']);

/** A timer that keeps the process alive: a close is part of the final, which `shutdown()` awaits. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Options of {@link closeMovedMessage}. */
export interface CloseMovedMessageOptions {
  readonly message: MessageRef;
  readonly finalView: CardView;
  readonly renderer: CardRenderer<unknown>;
  readonly transport: CardTransport<unknown>;
  /** Takes one call from the channel's budget. */
  readonly acquire: () => Promise<void>;
  /** Makes one platform call: timed for the budget, given up after the channel's call timeout. */
  readonly platformCall: <T>(call: () => Promise<T>) => Promise<T>;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Waits before each retry (like a final's: default 1000, 2000, 4000 ms). */
  readonly retryDelaysMs: readonly number[];
  /** Epoch ms until which an older call of the message may still be applied late: the close is repeated then. */
  readonly lateCallsUntil: number;
  /** Told once each update call settled: when it started (epoch ms), which try, how it failed. */
  readonly report?: (startedAt: number, attempt: number, failure?: CallFailure) => void;
  /** True when the platform accepted the fresh card holding the final (the note then points to it). */
  readonly freshCardExists: boolean;
  /** Fetches fresh credentials (an expired token): an `auth` answer is retried once after it. */
  readonly refreshCredentials?: () => Promise<void>;
}

/**
 * After the final went out as a fresh message, the message that kept refusing it is updated to
 * {@link movedNoticeView}, so it neither stays on "running" nor shows the final a second time.
 * Retried like a final (once, then after each delay); when an older call of that message may
 * still be applied late, closed once more after that, also when the first close kept failing.
 * Resolves when done or given up (a warning says so); never rejects.
 */
export async function closeMovedMessage(options: CloseMovedMessageOptions): Promise<void> {
  let payload: unknown;
  try {
    payload = options.renderer.render(movedNoticeView(options.finalView, options.freshCardExists));
  } catch (error) {
    options.logger.warn('could not mark the given-up message as moved: render failed', { message: options.message.id, error: String(error) });
    return;
  }
  const first = await closeWithRetries(options, payload);
  if (first.outcome === 'unreachable') return;
  // Done when a close sent after the last moment an older call could land was accepted: it is on
  // top for good. Otherwise (a close accepted earlier, or every try failed: tries may have landed,
  // and an older call may land after any of them) close once more when no older call can land.
  if (first.outcome === 'closed' && first.startedAt >= options.lateCallsUntil) return;
  // Every try failed and no older call can land: the warning said so, nothing more to do.
  if (first.outcome === 'failed' && options.lateCallsUntil === Number.NEGATIVE_INFINITY) return;
  const lateIn = options.lateCallsUntil - options.clock.now();
  if (lateIn > 0) await sleep(lateIn);
  await closeWithRetries(options, payload);
}

/**
 * One close, retried after each delay: `closed` once it was accepted, `failed` when every try
 * failed, `unreachable` when the message is gone or every call would fail alike ({@link GIVE_UP_AFTER}).
 */
async function closeWithRetries(options: CloseMovedMessageOptions, payload: unknown): Promise<{ readonly outcome: 'closed' | 'failed' | 'unreachable'; readonly startedAt: number }> {
  let refreshed = false;
  for (let attempt = 1; ; attempt++) {
    const startedAt = options.clock.now();
    let failure: CallFailure;
    try {
      await options.acquire();
      await options.platformCall(() => options.transport.update({ message: options.message, payload, final: true }));
      options.report?.(startedAt, attempt);
      return { outcome: 'closed', startedAt };
    } catch (error) {
      failure = classifyCallError(options.transport, error);
      options.report?.(startedAt, attempt, failure);
    }
    // An expired token, like a final's: refreshed once and retried at once (not a try).
    if (failure.kind === 'auth' && !refreshed && options.refreshCredentials) {
      refreshed = true;
      await options.refreshCredentials();
      attempt -= 1;
      continue;
    }
    if (failure.kind !== 'auth') refreshed = false;
    const delay = options.retryDelaysMs[attempt - 1];
    if (delay === undefined || GIVE_UP_AFTER.has(failure.kind)) {
      options.logger.warn('could not mark the given-up message as moved: it may still show an older state', { message: options.message.id, attempts: attempt, kind: failure.kind, detail: failure.detail });
      return { outcome: GIVE_UP_AFTER.has(failure.kind) ? 'unreachable' : 'failed', startedAt };
    }
    await sleep(failure.kind === 'rate-limited' ? Math.max(delay, failure.retryAfterMs ?? 0) : delay);
  }
}
