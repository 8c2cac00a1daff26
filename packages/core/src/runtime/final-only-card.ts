import { CardState } from '../card/card-state.js';
import type { CardStatus, CardView } from '../card/view.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { AgentEvent, EventOf, PlanItem } from '../events/contract.js';
import type { MessageRef } from '../plugin/contract.js';
import { EventParseError, parseEvent } from '../events/parse.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { LiveProgressCard, OpenCardOptions, ProgressCard, PushResult } from './progress-card.js';

type Fields<T extends AgentEvent['type']> = Omit<EventOf<T>, 'type'>;

/**
 * A card with progressive updates switched off (`progressive: false`): events are kept, each stamped
 * with the time it arrived, and only when the run ends are they all handed to the real card at once,
 * so the platform sees one message carrying the final state (plus its continuation parts) and no
 * edits. `view()` and `status` follow the events as they come, like any card.
 * @internal Created by `ProgressCards.open` for a channel whose switches say so.
 */
export class FinalOnlyCard implements ProgressCard {
  private readonly shadow: CardState;
  private held: AgentEvent[] = [];
  private released = false;
  private warnedAfterTerminal = false;

  constructor(
    private readonly inner: LiveProgressCard,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: OpenCardOptions = {},
  ) {
    this.shadow = new CardState({ startedAt: clock.now(), title: options.title, locale: options.locale, textBuffer: options.textBuffer });
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

  start(fields: Fields<'run.started'> = {}): PushResult { return this.push({ ...fields, type: 'run.started' }); }
  roundStarted(round: number): PushResult { return this.push({ type: 'round.started', round }); }
  roundEnded(round: number): PushResult { return this.push({ type: 'round.ended', round }); }
  thinking(text: string): PushResult { return this.push({ type: 'thinking.delta', text }); }
  answer(text: string): PushResult { return this.push({ type: 'answer.delta', text }); }
  toolStarted(callId: string, name: string, args?: string | Record<string, unknown>): PushResult {
    return this.push({ type: 'tool.started', callId, name, args });
  }
  toolArgsDelta(callId: string, delta: string): PushResult { return this.push({ type: 'tool.args_delta', callId, delta }); }
  toolFinished(callId: string, summary?: string, isError?: boolean): PushResult {
    return this.push({ type: 'tool.finished', callId, summary, isError });
  }
  usage(fields: Fields<'usage'>): PushResult { return this.push({ ...fields, type: 'usage' }); }
  plan(items: readonly PlanItem[]): PushResult { return this.push({ type: 'plan.updated', items }); }
  fileChanged(path: string, fields: Omit<Fields<'file.changed'>, 'path'> = {}): PushResult {
    return this.push({ ...fields, type: 'file.changed', path });
  }
  waitingFor(prompt: string): PushResult { return this.push({ type: 'interaction.requested', prompt }); }
  complete(answer?: string): PushResult { return this.push({ type: 'run.completed', answer }); }
  fail(error: string): PushResult { return this.push({ type: 'run.failed', error }); }
  cancel(reason?: string): PushResult { return this.push({ type: 'run.cancelled', reason }); }
}
