import type { CallFailureKind } from '../../plugin/contract.js';

/**
 * What the core does about a failed call:
 * - `refresh-credentials`: refresh once per failure streak (when the transport can), retry at once;
 * - `replace-message`: the message is gone; the next send creates a fresh one;
 * - `plain-text-render`: switch the card to the fallback render, retry at once;
 * - `wait-rate-limit`: wait the answer's retry-after (a channel-wide one pauses the channel);
 * - `back-off`: count a consecutive failure and wait the next backoff delay;
 * - `stop-channel`: every later call would fail the same way (credentials refused right after a
 *   refresh, or the channel's call quota spent): progressive updates of every card of the channel
 *   stop (one error log says so), nothing is rendered again as plain text, and each final is tried
 *   once, without backoff; a later successful call lifts the stop;
 * - `stop-card`: the card's target cannot be reached (a wrong channel, a bot not in the chat): that
 *   card's progressive updates stop (one error log names the target), its final is tried once, no
 *   plain-text render, no fresh message; other cards of the channel go on;
 * - `platform-stop`: the user stopped the message with the platform's own Stop: the run is
 *   cancelled (the card's `onStop` handler hears it), nothing more is sent for the card, and its
 *   final settles without a call (the message shows what the user stopped);
 * - `stop-operation`: the app lacks the scope of the refused operation (`send`, `update`, `reply`):
 *   that operation stops for every card of the channel for the rest of the process (one error log
 *   names the scope), the others go on; a final whose update is refused goes out as a fresh
 *   message, a final whose send is refused is reported undeliverable without retrying.
 */
export type FailureAction = 'refresh-credentials' | 'replace-message' | 'plain-text-render' | 'wait-rate-limit' | 'back-off' | 'stop-channel' | 'stop-card' | 'platform-stop' | 'stop-operation';

/**
 * Failure kind → actions, first applicable wins (`refresh-credentials` applies once per streak,
 * only when the transport can refresh and not while credentials are refused channel-wide;
 * `plain-text-render` only while the rich render is used). So an `auth` failure refreshes once and
 * retries at once; refused again, it stops the channel instead of backing off like a transient one.
 */
const FAILURE_ACTIONS: Readonly<Record<CallFailureKind, readonly FailureAction[]>> = {
  auth: ['refresh-credentials', 'stop-channel'],
  gone: ['replace-message'],
  rejected: ['plain-text-render', 'back-off'],
  'rate-limited': ['wait-rate-limit'],
  transient: ['back-off'],
  quota: ['stop-channel'],
  target: ['stop-card'],
  'stream-ended': ['replace-message'],
  'stopped-by-user': ['platform-stop'],
  'missing-scope': ['stop-operation'],
};

/** Picks the action for `kind`: the first of {@link FAILURE_ACTIONS} that `applies`. */
export function failureAction(kind: CallFailureKind, applies: (action: FailureAction) => boolean): FailureAction {
  const actions = FAILURE_ACTIONS[kind];
  return actions.find(applies) ?? actions[actions.length - 1]!;
}

/** The backoff after the `failures`-th consecutive failure (the last delay repeats; 1000 ms when none). */
export function backoffMs(delays: readonly number[], failures: number): number {
  return delays[Math.min(failures - 1, delays.length - 1)] ?? 1000;
}
