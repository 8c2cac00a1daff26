import type { InteractionOption, InteractionUser } from '../events/contract.js';

/** One option of {@link ApprovalRequest}. */
export type ApprovalOption = InteractionOption;

/** Arguments of `ProgressCard.requestApproval`. Durations in ms. */
export interface ApprovalRequest {
  /** What is asked, e.g. "Run `rm -rf dist`?". */
  readonly prompt: string;
  /** Buttons (default Approve, marked `approves`, and Deny), at most 5. */
  readonly options?: readonly ApprovalOption[];
  /** Time to wait for a click (default 600000 = 10 min); then the `onTimeout` option is taken. An integer from 1 to `MAX_TIMER_MS` (2 147 483 647, about 24.8 days). */
  readonly timeoutMs?: number;
  /** Option taken on timeout (default: the first option that does not approve, i.e. deny). */
  readonly onTimeout?: string;
  /**
   * Platform user ids (Feishu open_id, DingTalk userId) who may decide besides the card's
   * `requester`. With neither, anyone in the chat may decide.
   */
  readonly allowedUsers?: readonly string[];
  /** The tool call that asks (its `tool.finished` also ends the wait on the card). */
  readonly callId?: string;
}

/** How an approval ended. Times are epoch ms. */
export interface Decision {
  readonly interactionId: string;
  /** The option taken (by a click, or `onTimeout`). */
  readonly optionId: string;
  readonly label: string;
  /** True when the option `approves`. */
  readonly approved: boolean;
  /** Who clicked; absent on a timeout. */
  readonly by?: InteractionUser;
  readonly at: number;
  readonly timedOut: boolean;
}

/** Arguments of `ProgressCard.ask`. Durations in ms. */
export interface AskRequest {
  readonly prompt: string;
  /** Answers offered as buttons (labels, or options), at most 5. */
  readonly choices?: readonly (string | InteractionOption)[];
  /** Offer a text box (default: true when there are no choices). */
  readonly freeText?: boolean;
  /** Time to wait (default 600000 = 10 min); then the answer is `timedOut` with empty text. An integer from 1 to `MAX_TIMER_MS` (2 147 483 647). */
  readonly timeoutMs?: number;
  /** As in {@link ApprovalRequest.allowedUsers}. */
  readonly allowedUsers?: readonly string[];
}

/** The user's answer to `ask`. */
export interface Answer {
  readonly interactionId: string;
  /** The chosen choice's label, or the typed text; empty on a timeout. */
  readonly text: string;
  /** The chosen option's id (button answers). */
  readonly optionId?: string;
  readonly by?: InteractionUser;
  readonly at: number;
  readonly timedOut: boolean;
}

/** Called once when a user presses Stop; the card then ends as cancelled by that user. */
export type StopHandler = (by: InteractionUser) => void | Promise<void>;
