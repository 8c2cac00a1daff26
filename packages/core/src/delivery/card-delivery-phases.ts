/**
 * Where a card's delivery stands; the final's phases are the rungs of its ladder (see
 * `failures/final-ladder.ts`):
 * - `progressive`: live updates flow;
 * - `paused`: too many consecutive failures (or the channel stopped): progressive updates stop;
 *   after failures the card probes with backoff and goes back to `progressive` when a probe gets
 *   through; the final is tried in any case;
 * - `final-in-place`: the terminal state is being delivered on the card's message;
 * - `final-fresh`: the message kept refusing the final, so it goes out as a fresh message (a rate
 *   limit says nothing against the message: after one, this round runs on the same message);
 * - `delivered` / `undeliverable`: the final went out, or every rung failed. Nothing more is sent.
 */
export type CardDeliveryPhase = 'progressive' | 'paused' | 'final-in-place' | 'final-fresh' | 'delivered' | 'undeliverable';

/** Allowed moves of {@link CardDeliveryPhase}. */
export const PHASE_TRANSITIONS: Readonly<Record<CardDeliveryPhase, readonly CardDeliveryPhase[]>> = {
  progressive: ['paused', 'final-in-place'],
  paused: ['progressive', 'final-in-place'],
  'final-in-place': ['final-fresh', 'delivered', 'undeliverable'],
  'final-fresh': ['delivered', 'undeliverable'],
  delivered: [],
  undeliverable: [],
};

/** Phases of a card whose final is being delivered. */
export function isFinalRung(phase: CardDeliveryPhase): phase is 'final-in-place' | 'final-fresh' {
  return phase === 'final-in-place' || phase === 'final-fresh';
}
