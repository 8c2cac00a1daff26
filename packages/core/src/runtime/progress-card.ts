import { checkPriceTable, type PriceTable } from '../card/cost.js';
import type { LocaleSetting } from '../card/locale.js';
import type { RedactionOption } from '../card/redaction.js';
import type { TextBufferLimits } from '../card/text-buffer.js';
import type { ChatType } from '../card/verbosity.js';
import type { CardStatus, CardView, Verbosity } from '../card/view.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { CompletionPingSwitch, MessageRef, ReplyToMessage } from '../plugin/contract.js';
import type { AgentEvent, EventOf, InteractionUser, PlanItem } from '../events/contract.js';
import type { EventParseError } from '../events/parse.js';
import type { Answer, ApprovalRequest, AskRequest, Decision, StopHandler } from '../interaction/types.js';
import { safeString } from '../shared/safe-string.js';
import { checkTimerMs } from '../shared/timer-duration.js';
import { checkOpenCardShape } from './open-options.js';

/** Event fields without `type` (and with optional `at`). */
export type Fields<T extends AgentEvent['type']> = Omit<EventOf<T>, 'type'>;

/**
 * Options of `ProgressCards.open`. `open` throws an Error naming the field and value for any field
 * of the wrong shape (e.g. `open verbosity = "loud": …`).
 */
export interface OpenCardOptions {
  /**
   * The message that triggered the run: the card is sent as a reply to it, inside its thread or
   * topic with `inThread: true` (Feishu `reply_in_thread`, Slack `thread_ts`; DingTalk group chats
   * have no thread reply, the card is a normal message there). Updates edit that reply in place.
   * A recalled or deleted triggering message: Feishu and Slack (`thread_not_found`) post the card into the chat instead.
   * @throws Error (from `open`) naming `replyTo.messageId` when it is not a non-empty string.
   */
  readonly replyTo?: ReplyToMessage;
  /** Card title until `run.started` gives one. */
  readonly title?: string;
  /**
   * Card language until `run.started` gives one: `zh-CN`, `en`, or `auto` to follow the run's own
   * text (its title or prompt, else its answer). Default: the channel's (`CHANNEL_DEFAULT_LOCALES`:
   * Feishu, DingTalk, WeCom `zh-CN`; Slack, Telegram, Discord, Teams `en`). A channel's `locale`
   * setting (config or `<CHANNEL>_CARD_LANG`) wins over it.
   */
  readonly locale?: LocaleSetting;
  /**
   * `run` (default): one card for the whole run, rounds update it. `turn`: a new card starts when
   * the round advances; the previous card gets its final state and is never edited again.
   */
  readonly cardPer?: 'run' | 'turn';
  /** Verbose output buffer thresholds (default 50 segments / 8000 characters). */
  readonly textBuffer?: TextBufferLimits;
  /**
   * An existing card message to continue instead of sending a new one, e.g. the `message` of a
   * card opened by an earlier process for the same run: the first flush updates it in place.
   */
  readonly message?: MessageRef;
  /**
   * The user the run works for (platform user id, e.g. a Feishu open_id): with it, only they (and
   * a question's `allowedUsers`) may answer the card's questions or press Stop.
   */
  readonly requester?: InteractionUser;
  /**
   * How much this card shows: `quiet` (one card at the end), `compact` (status and current tool
   * call) or `detailed` (everything). Wins over the channel's `verbosity` setting.
   */
  readonly verbosity?: Verbosity;
  /** The kind of chat the card goes to; picks the channel's (or the default) verbosity for it. */
  readonly chatType?: ChatType;
  /**
   * After this long with no event (ms), a running card says "no new progress since 12:03" until the
   * next event (default 60 000; 0 turns it off; at most `MAX_TIMER_MS`, 2 147 483 647).
   * @throws Error (from `open`) naming `quietPeriodMs` when it is not an integer from 0 to that limit.
   */
  readonly quietPeriodMs?: number;
  /**
   * Prices per model (US dollars per million tokens) to show the run's cost from its token usage
   * when the source does not report a cost itself. @throws Error (from `open`) naming a bad price.
   */
  readonly prices?: PriceTable;
  /**
   * Secret redaction on this card (on by default): tokens, keys, `Authorization` headers and
   * `NAME=value` lines for secret-looking names in the title, tool lines, thinking, answer,
   * questions and errors show as `[redacted]`. `{ extraPatterns: [/ACME-[0-9a-f]{32}/g] }` adds
   * patterns; `false` turns it off. See `SECRET_PATTERNS`.
   * @throws Error (from `open`) naming `redaction` when it is neither `false` nor such an object.
   */
  readonly redaction?: RedactionOption;
  /**
   * The completion ping for this card (set it per chat): `false` turns it off, fields given win over
   * the channel's `completionPing` switch (default: a card that 3 later messages pushed up gets a
   * reply when its final lands). @throws Error (from `open`) naming a field of the wrong shape.
   */
  readonly completionPing?: Partial<CompletionPingSwitch> | false;
}

/** Outcome of feeding one event. Bad input never throws out of a card. */
export type PushResult =
  | { readonly accepted: true }
  | { readonly accepted: false; readonly reason: 'invalid'; readonly error: EventParseError }
  | { readonly accepted: false; readonly reason: 'after-terminal' };

/**
 * The channel-agnostic handle of one agent run in one chat. Feed it events; it keeps one card up
 * to date within the channel's limits and reports how the final state was delivered.
 */
export interface ProgressCard {
  /** Unique id (also the base of the platform idempotency key). */
  readonly id: string;
  /** The run the card shows: `OpenOptions.runId`, else {@link id}. `ProgressCards.resume(runId)` finds it after a restart. */
  readonly runId: string;
  readonly channelId: string;
  /** Validates and applies one event. Invalid input is logged and reported, never thrown. */
  push(event: unknown): PushResult;
  start(fields?: Fields<'run.started'>): PushResult;
  roundStarted(round: number): PushResult;
  roundEnded(round: number): PushResult;
  thinking(text: string): PushResult;
  answer(text: string): PushResult;
  toolStarted(callId: string, name: string, args?: string | Record<string, unknown>): PushResult;
  toolArgsDelta(callId: string, delta: string): PushResult;
  toolFinished(callId: string, summary?: string, isError?: boolean): PushResult;
  usage(fields: Fields<'usage'>): PushResult;
  /** The agent's plan as it stands now (`plan.updated`): the whole checklist each time. */
  plan(items: readonly PlanItem[]): PushResult;
  /** A file the agent wrote (`file.changed`), with line counts when known. */
  fileChanged(path: string, fields?: Omit<Fields<'file.changed'>, 'path'>): PushResult;
  /**
   * Sends a file the agent produced (a report, a patch, a chart) into the chat with the card (an
   * `attachment` event): the channel uploads it, reading it only inside its opt-in roots (the same
   * as local images), and the final card names it, or says why it was not uploaded (too large,
   * outside the roots, refused, a channel without uploads). The final waits for the upload.
   */
  attach(path: string, name?: string): PushResult;
  waitingFor(prompt: string): PushResult;
  complete(answer?: string): PushResult;
  fail(error: string): PushResult;
  cancel(reason?: string): PushResult;
  /**
   * Asks the user to approve something from the card: one button per option (default Approve /
   * Deny), the card waits (orange) until a click or the timeout (default 10 min, then the deny
   * option, shown on the card). The first valid click wins; see `InteractionRouter` for the rules.
   * A channel without callbacks shows the text reply to type instead of buttons.
   * @returns the decision (never rejects for a click; rejects at once naming the field for a bad request).
   */
  requestApproval(request: ApprovalRequest): Promise<Decision>;
  /** Asks the user a question from the card: buttons for `choices`, a text box for `freeText`. Like {@link requestApproval}. */
  ask(request: AskRequest): Promise<Answer>;
  /**
   * Puts a Stop button on the running card. A click (by the `requester` when set) calls `handler`
   * with the user and ends the card as cancelled by them. A later `onStop` replaces the handler.
   * @returns a function that removes the button.
   */
  onStop(handler: StopHandler): () => void;
  /** The current card (of the current turn in card-per-turn mode). */
  view(): CardView;
  /** The platform message of the current card once it was sent (or given in `OpenCardOptions.message`). */
  readonly message: MessageRef | undefined;
  readonly status: CardStatus;
  /** Resolves once with how the run's final state reached the chat. Never rejects. */
  readonly finalDelivery: Promise<FinalDelivery>;
}

/** @throws Error naming the field when `replyTo` is not `{ messageId: non-empty string, inThread?: boolean }`. */
function checkReplyTo(replyTo: ReplyToMessage): void {
  if (typeof replyTo !== 'object' || replyTo === null) throw new Error(`replyTo = ${safeString(replyTo)}: must be { messageId, inThread? }`);
  if (typeof replyTo.messageId !== 'string' || replyTo.messageId.trim() === '') {
    throw new Error(`replyTo.messageId = ${JSON.stringify(replyTo.messageId) ?? 'undefined'}: must be a non-empty string (the triggering message's id)`);
  }
  if (replyTo.inThread !== undefined && typeof replyTo.inThread !== 'boolean') {
    throw new Error(`replyTo.inThread = ${JSON.stringify(replyTo.inThread)}: must be true or false`);
  }
}

/**
 * Checks the options `ProgressCards.open` was given.
 * @throws Error naming the field and value: any field of the wrong shape (`open verbosity = "loud": …`),
 * `replyTo`, `quietPeriodMs` (an integer from 0 to 2 147 483 647 ms) or a `prices` entry.
 */
export function checkOpenCardOptions(options: OpenCardOptions): void {
  checkOpenCardShape(options);
  if (options.prices) checkPriceTable(options.prices);
  if (options.replyTo !== undefined) checkReplyTo(options.replyTo);
  if (options.quietPeriodMs !== undefined) checkTimerMs('quietPeriodMs', options.quietPeriodMs, 0);
}
