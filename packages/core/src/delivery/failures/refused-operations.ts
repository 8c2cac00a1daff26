import type { CallFailure } from '../../plugin/contract.js';
import type { Logger } from '../../shared/logger.js';

/** An operation of a channel that a permission scope can refuse on its own. */
export type ScopedOperation = 'send' | 'update' | 'reply';

/** What the dispatcher does with a card whose next call is an operation the channel lacks the scope for. */
export type RefusedOperationOutcome =
  /** Nothing refused: make the call. */
  | 'call'
  /** A progressive change: the card pauses (its final is still tried through what works). */
  | 'pause'
  /** The final's update is refused: the final goes out as a fresh message instead. */
  | 'final-as-fresh-message'
  /** Neither route works for the final: it is reported undeliverable without a call. */
  | 'final-undeliverable';

/**
 * The operations of one channel refused for a missing permission scope (the `stop-operation`
 * action of the failure table): each is stopped for every card of the channel for the rest of the
 * process, since only an admin granting the scope (and usually re-publishing the app) changes the
 * answer. One error log per scope and channel names it; the other operations go on.
 */
export class RefusedOperations {
  private readonly refused = new Map<ScopedOperation, Extract<CallFailure, { kind: 'missing-scope' }>>();
  private readonly loggedScopes = new Set<string>();

  constructor(
    private readonly channelId: string,
    private readonly logger: Logger,
  ) {}

  /** Records that `operation` lacks its scope; logs one error per scope. */
  refuse(operation: ScopedOperation, failure: CallFailure, fields: Record<string, unknown>): void {
    if (failure.kind !== 'missing-scope' || this.refused.has(operation)) return;
    this.refused.set(operation, failure);
    const scope = failure.scope ?? 'unnamed';
    if (this.loggedScopes.has(scope)) return;
    this.loggedScopes.add(scope);
    const named = failure.scope ? `permission scope ${failure.scope}` : 'a permission scope';
    this.logger.error(`${this.channelId}: the app lacks ${named}: ${operation} stops for every card of the channel until it is granted and the process restarts; other calls go on`, {
      ...fields,
      scope: failure.scope,
    });
  }

  /** The failure that refused `operation`, if it was. */
  refusal(operation: ScopedOperation): CallFailure | undefined {
    return this.refused.get(operation);
  }

  /**
   * What a card does whose next call is `operation`: a progressive change pauses; a final whose
   * update is refused moves to a fresh message (when sends still work and the card may still climb
   * to one), else it cannot be delivered.
   */
  outcome(operation: 'send' | 'update', final: boolean, canMoveToFreshMessage: boolean): RefusedOperationOutcome {
    if (!this.refused.has(operation)) return 'call';
    if (!final) return 'pause';
    if (operation === 'update' && canMoveToFreshMessage && !this.refused.has('send')) return 'final-as-fresh-message';
    return 'final-undeliverable';
  }

  /** The error a final reports when a refused scope ends it, e.g. `slack lacks permission scope chat:write: <detail>`. */
  finalError(operation: 'send' | 'update'): string {
    const failure = this.refused.get(operation) ?? this.refused.get('send') ?? this.refused.get('update');
    const named = failure && 'scope' in failure && failure.scope ? `permission scope ${failure.scope}` : 'a permission scope';
    return `${this.channelId} lacks ${named}${failure ? `: ${failure.detail}` : ''}`;
  }
}
