import { CardState } from '../card/card-state.js';
import { createRedactor } from '../card/redaction.js';
import type { CardStatus, CardView, Locale } from '../card/view.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { AgentEvent } from '../events/contract.js';
import type { MessageRef } from '../plugin/contract.js';
import { EventParseError, parseEvent } from '../events/parse.js';
import { cardClock, type Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { Answer, ApprovalRequest, AskRequest, Decision, StopHandler } from '../interaction/types.js';
import type { LiveProgressCard } from './live-progress-card.js';
import type { OpenCardOptions, ProgressCard, PushResult } from './progress-card.js';
import { EventMethods } from './event-methods.js';


/**
 * A card with progressive updates switched off (`progressive: false`): events are kept, each stamped
 * with the time it arrived, and only when the run ends are they all handed to the real card at once,
 * so the platform sees one message carrying the final state (plus its continuation parts) and no
 * edits. `view()` and `status` follow the events as they come, like any card.
 * @internal Created by `ProgressCards.open` for a channel whose switches say so.
 */
export class FinalOnlyCard extends EventMethods implements ProgressCard {
  private readonly shadow: CardState;
  private held: AgentEvent[] = [];
  private released = false;
  /** This card's time: monotonic elapsed times (see `cardClock`). */
  private readonly clock: Clock;
  private warnedAfterTerminal = false;

  constructor(
    private readonly inner: LiveProgressCard,
    clock: Clock,
    private readonly logger: Logger,
    options: OpenCardOptions = {},
    lockedLocale?: Locale,
  ) {
    super();
    this.clock = cardClock(clock);
    this.shadow = new CardState({
      startedAt: this.clock.now(),
      title: options.title,
      locale: options.locale,
      lockedLocale,
      defaultLocale: inner.channelLocale,
      textBuffer: options.textBuffer,
      redact: createRedactor(options.redaction),
    });
  }

  get id(): string {
    return this.inner.id;
  }

  get runId(): string {
    return this.inner.runId;
  }

  get channelId(): string {
    return this.inner.channelId;
  }

  get finalDelivery(): Promise<FinalDelivery> {
    return this.inner.finalDelivery;
  }

  /** The platform message once the final was sent (or the one given in `OpenCardOptions.message`). */
  get message(): MessageRef | undefined {
    return this.inner.message;
  }

  get status(): CardStatus {
    return this.shadow.currentStatus;
  }

  /** True once an event was accepted (a shutdown then ends the card as cancelled, which posts it). */
  get started(): boolean {
    return this.held.length > 0 || this.released;
  }

  view(): CardView {
    this.shadow.releaseText();
    return this.shadow.view(this.clock.now());
  }

  push(input: unknown): PushResult {
    let event: AgentEvent;
    try {
      event = parseEvent(input);
    } catch (error) {
      const parseError = error instanceof EventParseError ? error : new EventParseError(String(error), [], input, input);
      this.logger.warn(`card ${this.id}: dropped ${parseError.message}`);
      return { accepted: false, reason: 'invalid', error: parseError };
    }
    const stamped = { ...event, at: event.at ?? this.clock.now() } as AgentEvent;
    const result = this.shadow.apply(stamped, stamped.at ?? this.clock.now());
    if (result.ignored === 'after-terminal') {
      if (!this.warnedAfterTerminal) {
        this.warnedAfterTerminal = true;
        this.logger.warn(`card ${this.id}: ignoring ${event.type} and any later events after the run ended`);
      }
      return { accepted: false, reason: 'after-terminal' };
    }
    this.held.push(stamped);
    if (result.change === 'terminal') this.release();
    return { accepted: true };
  }

  /** Hands every kept event to the real card (which then sends its one final message). */
  private release(): void {
    this.released = true;
    const events = this.held;
    this.held = [];
    for (const event of events) this.inner.push(event);
  }

  /**
   * A card that posts only its final state cannot show buttons while the run goes on: the question
   * is answered at once as timed out (the deny option; `timedOut: true`), with one warning.
   */
  requestApproval(request: ApprovalRequest): Promise<Decision> {
    this.warnNoControls('requestApproval');
    const options = request.options?.length ? request.options : [{ id: 'deny', label: 'Deny' }];
    const fallback = options.find((o) => o.id === request.onTimeout) ?? options.find((o) => !o.approves) ?? options[0]!;
    return Promise.resolve({ interactionId: '', optionId: fallback.id, label: fallback.label, approved: false, at: this.clock.now(), timedOut: true });
  }

  /** As {@link requestApproval}: answered at once as timed out, with empty text. */
  ask(_request: AskRequest): Promise<Answer> {
    this.warnNoControls('ask');
    return Promise.resolve({ interactionId: '', text: '', at: this.clock.now(), timedOut: true });
  }

  /** No Stop button on a card that posts only its final state (one warning); returns a no-op remover. */
  onStop(_handler: StopHandler): () => void {
    this.warnNoControls('onStop');
    return () => undefined;
  }

  private warnedNoControls = false;

  private warnNoControls(method: string): void {
    if (this.warnedNoControls) return;
    this.warnedNoControls = true;
    this.logger.warn(`card ${this.id}: ${method} needs a card that updates while the run goes on; progressive updates are off for channel ${this.channelId}, so no buttons are shown and questions time out at once`);
  }

}
