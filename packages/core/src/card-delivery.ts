import type { ChangeKind } from './session.js';
import type { MessageRef } from './plugin.js';
import type { CardStatus, CardView } from './view.js';

/** Where the card's message stands on the platform. */
export type MessagePhase = 'unsent' | 'live' | 'gone';

/**
 * Where the card's delivery stands:
 * - `progressive`: live updates flow;
 * - `paused`: too many consecutive failures; only the final will be tried;
 * - `finalizing`: the terminal state is being delivered (retries, then a fresh message);
 * - `delivered` / `undeliverable`: the final went out, or every try failed. Nothing more is sent.
 */
export type DeliveryPhase = 'progressive' | 'paused' | 'finalizing' | 'delivered' | 'undeliverable';

/** Allowed moves of {@link MessagePhase}. */
export const MESSAGE_TRANSITIONS: Readonly<Record<MessagePhase, readonly MessagePhase[]>> = {
  unsent: ['live'],
  live: ['gone'],
  gone: ['live'],
};

/** Allowed moves of {@link DeliveryPhase}. */
export const DELIVERY_TRANSITIONS: Readonly<Record<DeliveryPhase, readonly DeliveryPhase[]>> = {
  progressive: ['paused', 'finalizing'],
  paused: ['finalizing'],
  finalizing: ['delivered', 'undeliverable'],
  delivered: [],
  undeliverable: [],
};

/** Order of value under overload: lower goes first. */
export const CHANGE_RANK: Readonly<Record<Exclude<ChangeKind, 'none'>, number>> = { terminal: 0, structural: 1, elapsed: 2 };

/** How the run's final state reached the chat, reported once per card. */
export interface FinalDelivery {
  /** True when the platform accepted the terminal state. */
  readonly ok: boolean;
  /** The terminal status that was delivered (or that failed to be). */
  readonly status: CardStatus;
  /** The message holding the final state. */
  readonly message?: MessageRef;
  /** True when the final went out as a fresh message (the first was gone or kept failing). */
  readonly freshMessage: boolean;
  /** Platform calls spent on the final state, retries included. */
  readonly attempts: number;
  /** Why the final failed (when `ok` is false). */
  readonly error?: string;
}

/** What a scheduled card exposes to the scheduler. */
export interface DeliverySource {
  /** Stable id, used for idempotency keys and logs. */
  readonly id: string;
  /** The card as it looks now; rendered at dispatch time so the latest state always wins. */
  view(): CardView;
  /** Target passed to the transport's `send` (undefined = the plugin's configured target). */
  readonly target: unknown;
  /** Called when the message turned out gone (recalled, deleted, too old). */
  onMessageGone(): void;
  /** Called once with the outcome of the final delivery. */
  onFinal(result: FinalDelivery): void;
}

/** Mutable delivery state of one card. Changed only by the channel scheduler. */
export class CardDelivery {
  message: MessageRef | undefined;
  messagePhase: MessagePhase = 'unsent';
  phase: DeliveryPhase = 'progressive';
  /** Highest-value change not yet sent; undefined when clean. */
  dirty: Exclude<ChangeKind, 'none'> | undefined;
  /** Epoch ms the card became dirty (fairness: oldest first within a rank). */
  dirtySince = 0;
  /** Epoch ms before which no request may start (backoff, rate limit). */
  retryAt = 0;
  /** Epoch ms the last request started. */
  lastDispatchAt = Number.NEGATIVE_INFINITY;
  inFlight = false;
  /** JSON of the last payload the platform accepted. */
  lastAcceptedKey: string | undefined;
  /** After a `rejected` answer progressive updates use the plain-text render. */
  renderMode: 'rich' | 'fallback' = 'rich';
  consecutiveFailures = 0;
  /** Calls spent on the final state of the current message. */
  finalAttempts = 0;
  finalAttemptsTotal = 0;
  /** True once the final was moved to a fresh message because the first kept failing. */
  freshFinal = false;
  /** True once the final's retries started over (on a fresh message, or in place after rate limits). */
  finalRetriedAgain = false;
  /** The message the final was moved away from (it kept refusing the final), if any. */
  movedFrom: MessageRef | undefined;
  /** True once any message of this card was found gone and replaced. */
  replaced = false;
  /** Bumped for every new message so a retried send reuses its idempotency key. */
  generation = 0;
  /**
   * True after a send with the current key failed without a clear answer (timeout, network): the
   * platform may have created that try's message, and a retried send is then de-duplicated to it
   * with the older content (Feishu `uuid`), so the retry must be followed by an update.
   */
  sendUncertain = false;
  /** Whether credentials were refreshed for the current failure streak. */
  authRefreshed = false;

  constructor(readonly source: DeliverySource) {}

  /** The next send creates a new message: a new idempotency key, nothing accepted on it yet. */
  renewMessage(): void {
    this.generation += 1;
    this.lastAcceptedKey = undefined;
    this.sendUncertain = false;
  }

  /** Idempotency key of the message being created (stable across retries of one send). */
  get sendKey(): string {
    return `${this.source.id}-${this.generation}`;
  }

  /** Records a change; returns false when it is dropped (delivered, paused, or gone + elapsed). */
  mark(change: Exclude<ChangeKind, 'none'>, now: number): boolean {
    if (this.phase === 'delivered' || this.phase === 'undeliverable') return false;
    if (change !== 'terminal' && this.phase !== 'progressive') return false;
    // A recalled/deleted card is not brought back just to move a timer.
    if (change === 'elapsed' && this.messagePhase === 'gone') return false;
    if (change === 'terminal' && this.phase !== 'finalizing') {
      this.moveTo('finalizing');
      // The final deserves the rich card: try it again even after a refused progressive update.
      this.renderMode = 'rich';
    }
    if (this.dirty === undefined) this.dirtySince = now;
    if (this.dirty === undefined || CHANGE_RANK[change] < CHANGE_RANK[this.dirty]) this.dirty = change;
    return true;
  }

  moveTo(next: DeliveryPhase): void {
    if (next === this.phase) return;
    if (!DELIVERY_TRANSITIONS[this.phase].includes(next)) {
      throw new Error(`card ${this.source.id}: delivery cannot move from ${this.phase} to ${next}`);
    }
    this.phase = next;
  }

  moveMessageTo(next: MessagePhase): void {
    if (next === this.messagePhase) return;
    if (!MESSAGE_TRANSITIONS[this.messagePhase].includes(next)) {
      throw new Error(`card ${this.source.id}: message cannot move from ${this.messagePhase} to ${next}`);
    }
    this.messagePhase = next;
  }
}
