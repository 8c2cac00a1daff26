import type { PlanItem } from '../events/contract.js';
import type { Fields, PushResult } from './progress-card.js';

/**
 * The typed shorthands of `ProgressCard` (`start`, `toolStarted`, `complete`…), each one event
 * pushed through {@link push}: written once for every card implementation.
 */
export abstract class EventMethods {
  /** Validates and applies one event; never throws. */
  abstract push(input: unknown): PushResult;

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
  /**
   * Sends a file the agent produced into the chat with the card (an `attachment` event): the channel
   * uploads it (from inside its opt-in roots only) and the final card names it, or says why not.
   */
  attach(path: string, name?: string): PushResult {
    return this.push({ type: 'attachment', path, ...(name !== undefined ? { name } : {}) });
  }
  waitingFor(prompt: string): PushResult { return this.push({ type: 'interaction.requested', prompt }); }
  complete(answer?: string): PushResult { return this.push({ type: 'run.completed', answer }); }
  fail(error: string): PushResult { return this.push({ type: 'run.failed', error }); }
  cancel(reason?: string): PushResult { return this.push({ type: 'run.cancelled', reason }); }
}
