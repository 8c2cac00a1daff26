import type { ChangeKind } from '../card/card-state.js';
import type { CardStatus, CardView } from '../card/view.js';
import type { MessageRef, ReplyToMessage, Requester } from '../plugin/contract.js';
import { ContinuationParts } from './continuations/continuation-parts.js';
import { PHASE_TRANSITIONS, isFinalRung, type CardDeliveryPhase } from './card-delivery-phases.js';
import { FlushQueue } from './schedule/flush-queue.js';
import { LateCallFence } from './failures/late-calls.js';
import { CardOutage } from './failures/outage.js';

/** Where the card's message stands on the platform. */
export type MessagePhase = 'unsent' | 'live' | 'gone';

/** Allowed moves of {@link MessagePhase}. */
const MESSAGE_TRANSITIONS: Readonly<Record<MessagePhase, readonly MessagePhase[]>> = {
  unsent: ['live'],
  live: ['gone'],
  gone: ['live'],
};

/**
 * A change worth sending: a {@link ChangeKind} other than `none`, or `text` (streamed answer or
 * thinking text released onto the card: it ranks below a tool starting or finishing, so structure
 * is never held back behind text of any card).
 */
export type CardChange = Exclude<ChangeKind, 'none'> | 'text';

/** Order of value under overload: lower goes first (the flush queue's rank). */
export const CHANGE_RANK: Readonly<Record<CardChange, number>> = { terminal: 0, structural: 1, text: 2, elapsed: 3 };

/** The change of a flush queue rank. */
export const CHANGE_OF_RANK: readonly CardChange[] = ['terminal', 'structural', 'text', 'elapsed'];

/**
 * Order of ready cards in the flush pump, lower first (then the oldest request): a terminal state,
 * then a card's first message (a new card appears at once; the slot ranks' `first-card`), then
 * updates of cards already shown by their change. Under a saturated budget shared by sends and
 * updates (DingTalk's streaming API, a Teams conversation), runs that start together show their
 * cards before the running cards' next updates.
 */
const FLUSH_ORDER: Readonly<Record<CardChange | 'first-message', number>> = { terminal: 0, 'first-message': 1, structural: 2, text: 3, elapsed: 4 };

/** The {@link FLUSH_ORDER} of a flush of `change` by a card whose next call is a new message (`sends`) or an update. */
export function flushOrder(change: CardChange, sends: boolean): number {
  return change !== 'terminal' && sends ? FLUSH_ORDER['first-message'] : FLUSH_ORDER[change];
}

/**
 * Why a card's final was not sent on purpose (see {@link FinalDelivery.skipped}):
 * - `never-started`: the card was opened but no event reached it before `ProgressCards.shutdown()`;
 *   nothing had been posted, so no "cancelled" card is posted either.
 */
export type FinalSkipReason = 'never-started';

/** How the run's final state reached the chat, reported once per card. */
export interface FinalDelivery {
  /**
   * True when the platform accepted the terminal state of the main card and every continuation
   * part, or when there was nothing to deliver ({@link skipped}). A final whose parts are missing
   * is not ok; its {@link error} names them (`continuation part 3 of 3 undeliverable`).
   */
  readonly ok: boolean;
  /** The terminal status that was delivered (or that failed to be). */
  readonly status: CardStatus;
  /**
   * The message holding the final state (or that failed to take it); undefined when no message is
   * known to exist (never sent, or the card's message was given up and no fresh one was confirmed).
   */
  readonly message?: MessageRef;
  /** True when the final went out as a fresh message (the first was gone or kept failing). */
  readonly freshMessage: boolean;
  /** Platform calls spent on the final state of the main card, retries included. */
  readonly attempts: number;
  /**
   * Platform requests the card spent in all (sends, updates, continuation parts, extra calls and
   * the requests transports reported beyond one per operation): what the platform's quota counts.
   * Absent on a card fenced by a lost lease.
   */
  readonly calls?: number;
  /** Why the final failed (when `ok` is false). */
  readonly error?: string;
  /**
   * Continuation parts of the final (see `CardRenderer.renderContinuations`): how many there are
   * and how many the platform accepted as they are. `{ delivered: 0, total: 0 }` when all fit.
   */
  readonly continuations: { readonly delivered: number; readonly total: number };
  /**
   * Set when no final was sent on purpose; then `ok` is true, `attempts` 0 and no `message`.
   * `never-started`: opened but never fed an event before `shutdown()` (status `cancelled`).
   */
  readonly skipped?: FinalSkipReason;
}

/** The card as its delivery sees it. */
export interface DeliverableCard {
  /** Stable id, used for idempotency keys and logs. */
  readonly id: string;
  /** The id of the `ProgressCard` this message belongs to (it has several in card-per-turn mode). */
  readonly progressCardId: string;
  /** The run it shows (`OpenOptions.runId`, else `progressCardId`), stored for `ProgressCards.resume`. */
  readonly runId: string;
  /** The card as it looks now; rendered at dispatch time so the latest state always wins. */
  view(): CardView;
  /** Target passed to the transport's `send` (undefined = the plugin's configured target). */
  readonly target: unknown;
  /** The message that triggered the run: the card is sent as a reply to it (see `SendRequest.replyToMessage`). */
  readonly replyToMessage?: ReplyToMessage;
  /** Who asked for the run (`OpenCardOptions.requester`), for a stream the platform addresses to a user (Slack `recipient_user_id`). */
  readonly requester?: Requester;
  /** Called when the message turned out gone (recalled, deleted, too old). */
  onMessageGone(): void;
  /** Called once with the outcome of the final delivery. */
  onFinal(result: FinalDelivery): void;
  /**
   * Called once when the user stopped the card's message with the platform's own Stop (a
   * `stopped-by-user` failure): the run is cancelled and the product's stop handler told.
   */
  onPlatformStop?(detail: string): void;
}

/**
 * Delivery state of one card message. Fields are private; the channel dispatcher changes them
 * through the methods below, each named for what happened.
 */
export class CardDeliveryRecord {
  /** The card's flush state (one request in flight, coalescing, minimum interval). */
  readonly flushQueue: FlushQueue;
  /** Follow-up messages of the current main message. */
  readonly parts: ContinuationParts;
  /** Older calls of the main message that may still be applied late (see {@link LateCallFence}). */
  readonly lateCalls: LateCallFence;
  /** Paused updates and probing after consecutive failures (see {@link CardOutage}). */
  readonly outage = new CardOutage();
  private messageRef: MessageRef | undefined;
  private messageState: MessagePhase = 'unsent';
  private deliveryPhase: CardDeliveryPhase = 'progressive';
  private lastAcceptedKey: string | undefined;
  private render: 'rich' | 'fallback' = 'rich';
  private consecutiveFailures = 0;
  private rungAttempts = 0;
  private finalAttemptsTotal = 0;
  private movedFromRef: MessageRef | undefined;
  private movedFromLandsUntil = Number.NEGATIVE_INFINITY;
  private replaced = false;
  private generation = 0;
  private sendUncertain = false;
  private finalAccepted = false;
  private authRefreshed = false;
  private callCount = 0;
  private shownQuestionId: string | undefined;

  constructor(readonly card: DeliverableCard, minIntervalMs: number, lateApplyWindowMs = 0) {
    this.flushQueue = new FlushQueue(minIntervalMs, CHANGE_RANK.text);
    this.lateCalls = new LateCallFence(lateApplyWindowMs);
    this.parts = new ContinuationParts(() => this.sendKey);
  }

  get message(): MessageRef | undefined { return this.messageRef; }
  /** Platform calls made for this card message so far (sends, updates, parts, extra calls; failed ones too). */
  get callsSpent(): number { return this.callCount; }
  /** One more platform call was made for this card message. */
  callSpent(): void { this.callCount += 1; }
  get messagePhase(): MessagePhase { return this.messageState; }
  get phase(): CardDeliveryPhase { return this.deliveryPhase; }
  /** `fallback` after the platform rejected the rich render (or it threw). */
  get renderMode(): 'rich' | 'fallback' { return this.render; }
  /** Final tries on the current rung. */
  get finalAttempts(): number { return this.rungAttempts; }
  /** The message the final was moved away from (it kept refusing the final), if any. */
  get movedFrom(): MessageRef | undefined { return this.movedFromRef; }
  /** The id of the open question the main message showed at its last accepted render; undefined when none. */
  get shownQuestion(): string | undefined { return this.shownQuestionId; }
  /** The render the platform last accepted on the main message (its JSON), if any. */
  get acceptedContent(): string | undefined { return this.lastAcceptedKey; }
  /** Epoch ms until which an older call of {@link movedFrom} may still be applied late. */
  get movedFromLateUntil(): number { return this.movedFromLandsUntil; }
  /** True when an accepted state is on the live message. */
  get hasAcceptedState(): boolean { return this.messageState === 'live' && this.lastAcceptedKey !== undefined; }
  /**
   * True when the current main message exists or may exist: it is live, or a send of it failed
   * without a clear answer (a timeout: the platform may have created it, maybe later).
   */
  get messageMayExist(): boolean { return this.messageState === 'live' || this.sendUncertain; }
  /** Idempotency key of the message being created (stable across retries of one send). */
  get sendKey(): string { return `${this.card.id}-${this.generation}`; }

  /** True when the live message already shows the render `key`. */
  shows(key: string): boolean {
    return this.messageState === 'live' && key === this.lastAcceptedKey && !this.lateCalls.reassertDue;
  }

  /**
   * Whether `change` is worth a flush: false once the final settled, for non-final changes after
   * the final began or while paused, and for elapsed times of a gone message (it is not brought
   * back just to move a timer). The first terminal change starts the final's ladder.
   */
  accepts(change: CardChange): boolean {
    if (this.deliveryPhase === 'delivered' || this.deliveryPhase === 'undeliverable') return false;
    if (change !== 'terminal' && this.deliveryPhase !== 'progressive') return false;
    if (change === 'elapsed' && this.messageState === 'gone') return false;
    if (change === 'terminal' && !isFinalRung(this.deliveryPhase)) {
      this.moveTo('final-in-place');
      // The final deserves the rich card: try it again even after a refused progressive update.
      this.render = 'rich';
      this.parts.resetFailures();
    }
    return true;
  }

  /** A try of the final state starts. */
  finalAttemptStarted(): void {
    this.rungAttempts += 1;
    this.finalAttemptsTotal += 1;
  }

  /**
   * The card continues a message sent earlier (by another process): later flushes update it.
   * `idempotencyKey`, the key that message was sent under, keeps a later fresh message from reusing it.
   */
  resume(message: MessageRef, idempotencyKey?: string): void {
    const generation = idempotencyKey?.startsWith(`${this.card.id}-`) ? Number(idempotencyKey.slice(this.card.id.length + 1)) : Number.NaN;
    if (Number.isSafeInteger(generation) && generation > this.generation) this.generation = generation;
    this.sent(message);
  }

  /** The main message was created. */
  sent(message: MessageRef): void {
    this.messageRef = message;
    this.moveMessageTo('live');
  }

  /**
   * A call succeeded: the failure streak ends. Returns true when an earlier send of this message
   * failed without a clear answer, so the platform may hold that try's older content: the caller
   * must update the message once more before trusting it.
   */
  callSucceeded(): boolean {
    this.consecutiveFailures = 0;
    this.authRefreshed = false;
    const uncertain = this.sendUncertain;
    this.sendUncertain = false;
    return uncertain;
  }

  /**
   * The platform accepted render `key` on the main message; `question`: the id of the open
   * question it shows (`CardView.controls.pending`), if any.
   */
  accepted(key: string, question?: string): void {
    this.lastAcceptedKey = key;
    this.shownQuestionId = question;
  }

  /**
   * The platform accepted a call carrying the final on the current message. The message then
   * shows the final (or, after an uncertain send, an earlier try's content the next update
   * replaces), so the final stays on it: see {@link finalWasAccepted}.
   */
  finalCallAccepted(): void {
    this.finalAccepted = true;
  }

  /**
   * True once the current message accepted a call carrying the final. A final that is only sent
   * again to make sure (an update after an uncertain send, a re-assert after late calls) is not
   * moved to a fresh message when those calls fail: the first message may show it already, and
   * closing it could fail in the same outage, leaving the final on two messages.
   */
  get finalWasAccepted(): boolean { return this.finalAccepted; }

  /** A send failed without a clear answer: the platform may have created the message. */
  sendMayHaveSucceeded(): void {
    this.sendUncertain = true;
  }

  /** Counts a failed call; returns the consecutive failures. */
  callFailed(): number {
    this.consecutiveFailures += 1;
    return this.consecutiveFailures;
  }

  /** Whether a credential refresh may still be tried in this failure streak; marks it tried. */
  tryCredentialRefresh(): boolean {
    if (this.authRefreshed) return false;
    this.authRefreshed = true;
    return true;
  }

  /**
   * A call failed for another reason than refused credentials: the platform got past them, so the
   * last refresh worked and a later expiry (tokens expire any number of times) may refresh again.
   */
  credentialsPassed(): void {
    this.authRefreshed = false;
  }

  /** Consecutive failed calls so far (0 after a success). */
  get failureStreak(): number { return this.consecutiveFailures; }

  /** True once credentials were refreshed in this failure streak. */
  get credentialsRefreshed(): boolean { return this.authRefreshed; }

  /** A credential refresh is not a try of the final. */
  finalAttemptRefunded(): void {
    this.rungAttempts -= 1;
  }

  /** Switches to the plain-text render. */
  useFallbackRender(): void {
    this.render = 'fallback';
  }

  /** The message is gone (recalled, deleted, too old): the next send creates a fresh one. */
  messageGone(): void {
    if (this.messageState === 'live') this.moveMessageTo('gone');
    this.renewMessage();
    this.rungAttempts = 0;
    this.replaced = true;
  }

  /**
   * A native stream rolled over: the card goes on in `message`, a fresh stream message that
   * follows the previous one (whose text stays as it is).
   */
  continuedIn(message: MessageRef): void {
    this.messageRef = message;
    this.moveMessageTo('live');
  }

  /** Too many failures (or the channel stopped): progressive updates stop. */
  pause(): void {
    if (this.deliveryPhase === 'progressive') this.moveTo('paused');
  }

  /** A probe of a paused card got through: progressive updates flow again. */
  resumeUpdates(): void {
    if (this.deliveryPhase === 'paused') this.moveTo('progressive');
  }

  /**
   * The final climbs to `rung` (called by the walk of the final's ladder, `FinalLadder` in
   * `failures/final-ladder.ts`). With `freshMessage` it leaves the current message for a new one
   * (when no message exists yet, the send is simply tried again: under the same key while an
   * earlier send may have created the message, else under a new key).
   */
  climbTo(rung: 'final-in-place' | 'final-fresh', freshMessage: boolean): void {
    this.moveTo(rung);
    this.rungAttempts = 0;
    if (!freshMessage) return;
    // A send that may have created the message keeps its key: a new one would orphan that message.
    if (this.messageState !== 'live' && this.sendUncertain) return;
    if (this.messageState === 'live') {
      this.movedFromRef = this.messageRef;
      this.movedFromLandsUntil = this.lateCalls.anyLandsUntil;
      this.moveMessageTo('gone');
    }
    this.renewMessage();
  }

  /**
   * The final settled; returns the report (without the card's status and continuations). Its
   * `message` is the live main message; none when that was given up and no fresh one is known.
   */
  settle(ok: boolean): Pick<FinalDelivery, 'ok' | 'message' | 'freshMessage' | 'attempts' | 'calls'> {
    this.moveTo(ok ? 'delivered' : 'undeliverable');
    this.flushQueue.clear();
    return { ok, message: this.messageState === 'live' ? this.messageRef : undefined, freshMessage: this.replaced || this.movedFromRef !== undefined, attempts: this.finalAttemptsTotal, calls: this.callCount };
  }

  /** Every call spent on the final so far. */
  get totalFinalAttempts(): number { return this.finalAttemptsTotal; }

  private renewMessage(): void {
    this.generation += 1;
    this.lateCalls.reset();
    this.lastAcceptedKey = undefined;
    this.sendUncertain = false;
    this.finalAccepted = false;
    this.parts.reset();
  }

  private moveTo(next: CardDeliveryPhase): void {
    if (next === this.deliveryPhase) return;
    if (!PHASE_TRANSITIONS[this.deliveryPhase].includes(next)) {
      throw new Error(`card ${this.card.id}: delivery cannot move from ${this.deliveryPhase} to ${next}`);
    }
    this.deliveryPhase = next;
  }

  private moveMessageTo(next: MessagePhase): void {
    if (next === this.messageState) return;
    if (!MESSAGE_TRANSITIONS[this.messageState].includes(next)) {
      throw new Error(`card ${this.card.id}: message cannot move from ${this.messageState} to ${next}`);
    }
    this.messageState = next;
  }
}
