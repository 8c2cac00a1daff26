import type { CardView } from '../card/view.js';
import type { InteractionUser } from '../events/contract.js';

/**
 * A click on a card control, as a channel plugin hands it to the core after checking that the
 * platform sent it (signature, token). Platform-free: the plugin maps its callback payload here.
 */
export interface ControlClick {
  /** `CardControls.cardId` carried by the control (the card message it was drawn on). */
  readonly cardId: string;
  /** The interaction the control belongs to; `stop` for the Stop button. */
  readonly interactionId: string;
  /** The option of the clicked button. */
  readonly optionId?: string;
  /** The free text answer typed into the card. */
  readonly text?: string;
  /** Who clicked. */
  readonly user: InteractionUser;
  /**
   * The platform's id of this callback delivery (Feishu `header.event_id`, DingTalk the stream
   * `messageId`…): a retried callback carries the same id and is answered from memory.
   */
  readonly deliveryId: string;
}

/**
 * What became of a click:
 * - `decided`: it answered the question (the decision goes to the agent exactly once);
 * - `stopped`: the run is being stopped;
 * - `already-decided`: someone (or the timeout) decided first;
 * - `not-allowed`: the user may not decide this one (polite refusal);
 * - `stale`: a control of an earlier run or turn, or of a run that ended: nothing happens;
 * - `invalid`: an option the question does not offer, or an empty answer;
 * - `unavailable`: the card belongs to another process of the app (a shared store) that did not
 *   answer in time (it stopped, and no process has taken the card over yet): nothing was decided,
 *   the user may try again.
 */
export type ClickOutcome = 'decided' | 'stopped' | 'already-decided' | 'not-allowed' | 'stale' | 'invalid' | 'unavailable';

/** The core's answer to a click; the plugin turns it into the platform's callback response. */
export interface ClickReply {
  readonly outcome: ClickOutcome;
  /** Short text for the clicking user (a toast), in the card's language. */
  readonly message: string;
  /** How the toast looks. */
  readonly tone: 'success' | 'info' | 'warning' | 'error';
  /**
   * The card after the click, for a callback response that updates the card in place (Feishu
   * answers with the card within its 3 s limit). Absent when the card did not change. The core
   * also delivers the change through its normal update path.
   */
  readonly view?: CardView;
  /** True when this is a retried callback answered from memory (nothing was done again). */
  readonly repeated: boolean;
}

/**
 * Routes a verified click; never throws or rejects. Returns a promise when the card belongs to
 * another process of the app (a shared store): await it, it settles within the time the core
 * allows for the hand-over (`ProgressCardsOptions.clickForwardTimeoutMs`, default 2 000 ms, inside
 * Feishu's 3 s).
 */
export type ClickHandler = (click: ControlClick) => ClickReply | Promise<ClickReply>;
