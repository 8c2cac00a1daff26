import { checkTimerMs } from '../shared/timer-duration.js';
import { randomBytes } from 'node:crypto';
import type { CardView, Locale } from '../card/view.js';
import type { InteractionOption, InteractionUser } from '../events/contract.js';
import type { InteractionEntry, InteractionRouter, InteractivePlugin } from '../interaction/router.js';
import { INTERACTION_TEXTS } from '../plugin/interaction-texts.js';
import type { Answer, ApprovalRequest, AskRequest, Decision, StopHandler } from '../interaction/types.js';
import type { ControlClick } from '../plugin/contract.js';
import type { Logger } from '../shared/logger.js';

/** Default wait for a click, in ms (10 min). */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 600_000;

/** What {@link CardInteractions} needs from its card. */
export interface InteractionHost {
  readonly plugin: InteractivePlugin;
  readonly router: InteractionRouter;
  readonly logger: Logger;
  readonly requester?: InteractionUser;
  /** Feeds an event to the card (never throws). */
  push(event: Record<string, unknown>): void;
  /** Id of the card message controls are drawn on now. */
  currentCardId(): string;
  locale(): Locale;
  view(): CardView;
  isTerminal(): boolean;
  /** Shows or hides the Stop button. */
  setStoppable(on: boolean): void;
  /** The channel's card callbacks could not start: the card shows replies to type instead of buttons. */
  useTextReplies(): void;
  cancel(reason: string): void;
  now(): number;
}

/** How one open question ends: by a click, or without one (timeout, run ended). */
interface Question<R> {
  readonly entry: InteractionEntry;
  readonly timer: NodeJS.Timeout;
  /** Settles without a click. */
  readonly lapse: () => void;
  readonly resolve: (result: R) => void;
}

/**
 * The interactive half of a card: `requestApproval`, `ask` and `onStop`. Registers each question
 * with the composition's {@link InteractionRouter}, feeds the card `interaction.requested` /
 * `interaction.resolved`, times questions out, and settles them when the run ends.
 */
export class CardInteractions {
  private readonly questions = new Set<Question<unknown>>();
  private stopEntry: InteractionEntry | undefined;
  private stopHandler: StopHandler | undefined;

  constructor(private readonly host: InteractionHost) {}

  requestApproval(request: ApprovalRequest): Promise<Decision> {
    const texts = INTERACTION_TEXTS[this.host.locale()];
    const options: readonly InteractionOption[] = request.options?.length
      ? request.options
      : [
          { id: 'approve', label: texts.approve, style: 'primary', approves: true },
          { id: 'deny', label: texts.deny, style: 'danger' },
        ];
    const fallbackId = request.onTimeout ?? options.find((o) => !o.approves)?.id;
    const fallback = options.find((o) => o.id === fallbackId);
    if (!fallback) {
      return Promise.reject(new Error(`requestApproval: onTimeout = ${JSON.stringify(request.onTimeout)} is not one of the option ids (${options.map((o) => o.id).join(', ')}), and no option denies`));
    }
    return this.open<Decision>({ prompt: request.prompt, options, freeText: false, approval: true, timeoutMs: request.timeoutMs, allowedUsers: request.allowedUsers, callId: request.callId }, (id, click, option) => {
      const chosen = option ?? fallback;
      return { interactionId: id, optionId: chosen.id, label: chosen.label, approved: click ? chosen.approves === true : false, by: click?.user, at: this.host.now(), timedOut: !click };
    });
  }

  ask(request: AskRequest): Promise<Answer> {
    const options = (request.choices ?? []).map((choice, i): InteractionOption => (typeof choice === 'string' ? { id: `choice_${i + 1}`, label: choice } : choice));
    const freeText = request.freeText ?? options.length === 0;
    return this.open<Answer>({ prompt: request.prompt, options, freeText, approval: false, timeoutMs: request.timeoutMs, allowedUsers: request.allowedUsers }, (id, click, option) => ({
      interactionId: id,
      text: option?.label ?? click?.text?.trim() ?? '',
      optionId: option?.id,
      by: click?.user,
      at: this.host.now(),
      timedOut: !click,
    }));
  }

  onStop(handler: StopHandler): () => void {
    if (typeof handler !== 'function') throw new TypeError(`onStop: handler must be a function, got ${typeof handler}`);
    if (this.stopEntry) this.host.router.remove(this.stopEntry);
    const host = this.host;
    const entry: InteractionEntry = {
      interactionId: 'stop',
      isCurrentCard: (cardId) => cardId === host.currentCardId() && !host.isTerminal(),
      currentCardId: () => host.currentCardId(),
      locale: () => host.locale(),
      allowed: host.requester ? new Set([host.requester.id]) : undefined,
      accept: (click) => {
        const name = click.user.name || click.user.id;
        void Promise.resolve()
          .then(() => handler(click.user))
          .catch((error: unknown) => host.logger.error(`card stop handler failed: ${error instanceof Error ? error.message : String(error)}`));
        host.cancel(INTERACTION_TEXTS[host.locale()].stoppedReason(name));
        return { view: host.view(), label: name };
      },
    };
    this.stopEntry = entry;
    this.stopHandler = handler;
    host.router.add(entry);
    host.setStoppable(true);
    this.listen();
    return () => {
      if (this.stopEntry !== entry) return;
      this.stopEntry = undefined;
      this.stopHandler = undefined;
      host.router.remove(entry);
      host.setStoppable(false);
    };
  }

  /**
   * The user stopped the card's message with the platform's own Stop (a `stopped-by-user`
   * failure). No click reaches the app, so who pressed it is not known: the stop handler, if any,
   * is called with the run's requester when set, else `{ id: '' }`; the card ends as cancelled.
   */
  platformStopped(): void {
    if (this.host.isTerminal()) return;
    const handler = this.stopHandler;
    const by = this.host.requester ?? { id: '' };
    if (handler) {
      void Promise.resolve()
        .then(() => handler(by))
        .catch((error: unknown) => this.host.logger.error(`card stop handler failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    const texts = INTERACTION_TEXTS[this.host.locale()];
    this.host.cancel(this.host.requester ? texts.stoppedReason(this.host.requester.name || this.host.requester.id) : texts.stoppedOnPlatform);
  }

  /** Starts the channel's callbacks (once per composition); when they cannot start, the card falls back to replies to type. */
  private listen(): void {
    void this.host.router.listen(this.host.plugin).then((listening) => {
      if (!listening) this.host.useTextReplies();
    });
  }

  /** The run ended: open questions settle as without a click, the Stop button goes. */
  runEnded(): void {
    for (const question of [...this.questions]) question.lapse();
    if (this.stopEntry) this.host.router.remove(this.stopEntry);
    this.stopEntry = undefined;
    this.stopHandler = undefined;
  }

  private open<R>(
    spec: { prompt: string; options: readonly InteractionOption[]; freeText: boolean; approval: boolean; timeoutMs?: number; allowedUsers?: readonly string[]; callId?: string },
    result: (id: string, click: ControlClick | undefined, option: InteractionOption | undefined) => R,
  ): Promise<R> {
    const problem = checkSpec(spec);
    if (problem) return Promise.reject(new Error(problem));
    const host = this.host;
    const id = `ia_${randomBytes(6).toString('hex')}`;
    const allowedIds = [...(spec.allowedUsers ?? []), ...(host.requester ? [host.requester.id] : [])];
    if (host.isTerminal()) return Promise.resolve(result(id, undefined, undefined));
    return new Promise<R>((resolve) => {
      let cardId = '';
      const settle = (click: ControlClick | undefined, option: InteractionOption | undefined) => {
        clearTimeout(question.timer);
        this.questions.delete(question as Question<unknown>);
        resolve(result(id, click, option));
      };
      const entry: InteractionEntry = {
        interactionId: id,
        isCurrentCard: (clicked) => clicked === cardId && !host.isTerminal(),
        currentCardId: () => cardId,
        locale: () => host.locale(),
        allowed: allowedIds.length > 0 ? new Set(allowedIds) : undefined,
        accept: (click) => {
          const option = click.optionId === undefined ? undefined : spec.options.find((o) => o.id === click.optionId);
          const text = click.text?.trim();
          if (!option && !(spec.freeText && text)) return undefined;
          const label = option?.label ?? text!;
          host.push({ type: 'interaction.resolved', interactionId: id, optionId: option?.id, label, text: option ? undefined : text, by: click.user, approved: spec.approval ? option?.approves === true : true });
          settle(click, option);
          return { view: host.view(), label };
        },
      };
      const lapse = () => {
        host.router.remove(entry);
        settle(undefined, undefined);
      };
      const question: Question<R> = {
        entry,
        resolve,
        lapse,
        timer: setTimeout(() => {
          host.router.expire(entry);
          const timedOut = result(id, undefined, undefined) as { label?: string; optionId?: string };
          host.push({ type: 'interaction.resolved', interactionId: id, optionId: timedOut.optionId, label: timedOut.label, timedOut: true, approved: false });
          settle(undefined, undefined);
        }, spec.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS),
      };
      question.timer.unref();
      this.questions.add(question as Question<unknown>);
      host.push({ type: 'interaction.requested', prompt: spec.prompt, interactionId: id, options: spec.options, freeText: spec.freeText, callId: spec.callId });
      cardId = host.currentCardId();
      host.router.add(entry);
      this.listen();
    });
  }
}

/** The first problem with a question, as a message naming the field and value; undefined when fine. */
function checkSpec(spec: { prompt: unknown; options: readonly InteractionOption[]; timeoutMs?: number }): string | undefined {
  if (typeof spec.prompt !== 'string' || spec.prompt.trim() === '') return `prompt = ${JSON.stringify(spec.prompt)} (a non-empty string is required)`;
  if (spec.options.length > 5) return `options: ${spec.options.length} given (at most 5 buttons)`;
  const ids = new Set(spec.options.map((o) => o.id));
  if (ids.size !== spec.options.length) return `options: ids must be unique, got ${spec.options.map((o) => o.id).join(', ')}`;
  if (spec.timeoutMs !== undefined) {
    try {
      checkTimerMs('timeoutMs', spec.timeoutMs, 1);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return undefined;
}
