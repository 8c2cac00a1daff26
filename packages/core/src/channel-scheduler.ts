import { ChannelBudget } from './budget.js';
import { closeMovedMessage } from './moved-notice.js';
import { CHANGE_RANK, CardDelivery, type DeliverySource } from './card-delivery.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { ChannelDefaults, ChannelPlugin, DeliveryFailure } from './plugin.js';
import type { DeliveryPolicy } from './tokens.js';
import { isTerminalStatus } from './view.js';

/** Counters of one channel, for dashboards and the CLI. */
export interface ChannelStats {
  readonly sent: number;
  readonly updated: number;
  readonly failed: number;
  readonly rateLimited: number;
  /** Dispatches skipped because the render equalled the last accepted one. */
  readonly unchanged: number;
}

/**
 * Delivers the cards of one channel. Per card: one request in flight, changes coalesce, the
 * payload is rendered at dispatch (latest state wins), a minimum interval between requests, the
 * final skips that interval. Per channel: a shared {@link ChannelBudget}; when more cards are
 * dirty than the budget serves, terminal states go first, then structural changes, then
 * elapsed-only refreshes, oldest first within each.
 */
export class ChannelScheduler {
  private readonly budget: ChannelBudget;
  private readonly dirty = new Set<CardDelivery>();
  private pumping = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly idleWaiters = new Set<() => void>();
  private readonly counters = { sent: 0, updated: 0, failed: 0, rateLimited: 0, unchanged: 0 };

  constructor(
    readonly plugin: ChannelPlugin,
    readonly settings: ChannelDefaults,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly policy: DeliveryPolicy,
  ) {
    this.budget = new ChannelBudget(settings.budget, clock);
  }

  /** A delivery record for a new card. */
  register(source: DeliverySource): CardDelivery {
    return new CardDelivery(source);
  }

  /** Records a change of `card` and starts delivery when budget allows. */
  markDirty(card: CardDelivery, change: 'terminal' | 'structural' | 'elapsed'): void {
    if (!card.mark(change, this.clock.now())) return;
    this.dirty.add(card);
    void this.pump();
  }

  /** Counters since the channel was created. */
  get stats(): ChannelStats {
    return { ...this.counters };
  }

  /** Resolves when no card of the channel is dirty or in flight. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Stops the wake timer (cards in flight finish on their own). */
  dispose(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
  }

  private isIdle(): boolean {
    return this.dirty.size === 0;
  }

  private eligibleAt(card: CardDelivery): number {
    if (card.dirty === 'terminal') return card.retryAt;
    return Math.max(card.retryAt, card.lastDispatchAt + this.settings.perCardIntervalMs);
  }

  private pickNext(now: number): CardDelivery | undefined {
    let best: CardDelivery | undefined;
    for (const card of this.dirty) {
      if (card.inFlight || card.dirty === undefined || this.eligibleAt(card) > now) continue;
      if (
        !best ||
        CHANGE_RANK[card.dirty] < CHANGE_RANK[best.dirty!] ||
        (CHANGE_RANK[card.dirty] === CHANGE_RANK[best.dirty!] && card.dirtySince < best.dirtySince)
      ) best = card;
    }
    return best;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const now = this.clock.now();
        if (this.budget.pausedUntil > now || !this.pickNext(now)) break;
        await this.budget.acquire();
        const card = this.pickNext(this.clock.now());
        if (card) void this.dispatch(card);
      }
    } finally {
      this.pumping = false;
    }
    this.scheduleWake();
  }

  private scheduleWake(): void {
    let next = Number.POSITIVE_INFINITY;
    let terminalWaiting = false;
    for (const card of this.dirty) {
      if (card.inFlight) continue;
      next = Math.min(next, this.eligibleAt(card));
      terminalWaiting ||= card.dirty === 'terminal';
    }
    if (next === Number.POSITIVE_INFINITY) return;
    next = Math.max(next, this.budget.pausedUntil);
    if (this.wakeTimer && this.wakeAt <= next) {
      // An earlier wake-up set for progressive refreshes must now keep the process alive too.
      if (terminalWaiting) this.wakeTimer.ref();
      return;
    }
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = next;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wakeAt = Number.POSITIVE_INFINITY;
      void this.pump();
    }, Math.max(0, next - this.clock.now()));
    // A pending final keeps the process alive; progressive refreshes do not.
    if (!terminalWaiting) this.wakeTimer.unref();
  }

  /** Never rejects: whatever the plugin throws is handled here, so one card cannot stop the channel or the process. */
  private async dispatch(card: CardDelivery): Promise<void> {
    const change = card.dirty!;
    card.dirty = undefined;
    card.inFlight = true;
    card.lastDispatchAt = this.clock.now();
    const view = card.source.view();
    const final = isTerminalStatus(view.status);
    const { renderer, transport } = this.plugin;
    try {
      let payload: unknown;
      let key: string;
      try {
        payload = card.renderMode === 'fallback' ? renderer.renderFallback(view) : renderer.render(view);
        key = JSON.stringify(payload);
      } catch (error) {
        this.renderFailed(card, change, final, error);
        return;
      }
      if (card.messagePhase === 'live' && key === card.lastAcceptedKey) {
        this.counters.unchanged += 1;
        if (final) this.finish(card, true);
        return;
      }
      if (final) {
        card.finalAttempts += 1;
        card.finalAttemptsTotal += 1;
      }
      if (card.messagePhase === 'live') {
        await transport.update({ message: card.message!, payload, final });
        this.counters.updated += 1;
      } else {
        const replacing = card.messagePhase === 'gone';
        card.message = await transport.send({ target: card.source.target as never, payload, idempotencyKey: card.sendKey, replacing });
        card.moveMessageTo('live');
        this.counters.sent += 1;
      }
      card.consecutiveFailures = 0;
      card.authRefreshed = false;
      if (card.sendUncertain) {
        // Maybe the earlier try's message, unchanged: update it with this state before trusting it.
        card.sendUncertain = false;
        this.requeue(card, change, this.clock.now());
        return;
      }
      card.lastAcceptedKey = key;
      if (final) this.finish(card, true);
    } catch (error) {
      const failure = this.classify(error);
      if (card.messagePhase !== 'live' && failure.kind === 'transient') card.sendUncertain = true;
      await this.handleFailure(card, change, final, failure);
    } finally {
      card.inFlight = false;
      if (card.dirty === undefined) this.dirty.delete(card);
      if (this.isIdle()) this.resolveIdle();
      void this.pump();
    }
  }

  /** `classify` must not throw; if it does anyway, the call counts as a transient failure. */
  private classify(error: unknown): DeliveryFailure {
    try {
      return this.plugin.transport.classify(error);
    } catch (bug) {
      return { kind: 'transient', detail: `classify threw ${String(bug)} for ${String(error)}` };
    }
  }

  /**
   * The renderer threw (a plugin bug): the card switches to the plain-text render; when that throws
   * too, progressive updates pause and the final is reported undeliverable (a pure renderer would
   * throw again, so it is not retried).
   */
  private renderFailed(card: CardDelivery, change: 'terminal' | 'structural' | 'elapsed', final: boolean, error: unknown): void {
    this.logger.error(`${card.renderMode} render failed`, { card: card.source.id, channel: this.plugin.id, error: String(error) });
    this.counters.failed += 1;
    if (card.renderMode === 'rich') {
      card.renderMode = 'fallback';
      this.requeue(card, change, this.clock.now());
    } else if (final) this.finish(card, false, `render failed: ${String(error)}`);
    else if (card.phase === 'progressive') card.moveTo('paused');
  }

  private async handleFailure(card: CardDelivery, change: 'terminal' | 'structural' | 'elapsed', final: boolean, failure: DeliveryFailure): Promise<void> {
    const now = this.clock.now();
    const fields = { card: card.source.id, channel: this.plugin.id, kind: failure.kind, detail: failure.detail };
    this.logger.warn(`${final ? `final attempt ${card.finalAttempts}` : 'update'} failed`, fields);
    this.counters.failed += 1;
    if (failure.kind === 'auth' && !card.authRefreshed && this.plugin.transport.refreshAuth) {
      card.authRefreshed = true;
      if (final) card.finalAttempts -= 1;
      try {
        await this.plugin.transport.refreshAuth();
      } catch (err) {
        this.logger.error('credential refresh failed', { ...fields, error: String(err) });
      }
      this.requeue(card, change, now);
      return;
    }
    if (failure.kind === 'gone') {
      if (card.messagePhase === 'live') card.moveMessageTo('gone');
      card.renewMessage();
      card.finalAttempts = 0;
      card.replaced = true;
      card.source.onMessageGone();
      // Non-final: the next structural change (or the final) sends a fresh card.
      if (final) this.requeue(card, change, now);
      return;
    }
    if (failure.kind === 'rejected' && card.renderMode === 'rich') {
      card.renderMode = 'fallback';
      card.consecutiveFailures += 1;
      this.requeue(card, change, now);
      return;
    }
    let wait: number;
    if (failure.kind === 'rate-limited') {
      this.counters.rateLimited += 1;
      wait = failure.retryAfterMs ?? this.policy.defaultRateLimitWaitMs;
      if (failure.scope === 'channel') this.budget.pauseUntil(now + wait);
    } else {
      card.consecutiveFailures += 1;
      const delays = this.policy.updateRetryDelaysMs;
      wait = delays[Math.min(card.consecutiveFailures - 1, delays.length - 1)] ?? 1000;
    }
    if (final) {
      this.retryFinal(card, change, now, wait, failure);
      return;
    }
    if (card.consecutiveFailures >= this.policy.maxConsecutiveFailures && card.phase === 'progressive') {
      this.logger.warn('pausing progressive updates until the final', fields);
      card.moveTo('paused');
      return;
    }
    this.requeue(card, change, now, now + wait);
  }

  private retryFinal(card: CardDelivery, change: 'terminal' | 'structural' | 'elapsed', now: number, wait: number, failure: DeliveryFailure): void {
    const delays = this.policy.finalRetryDelaysMs;
    if (card.finalAttempts <= delays.length) {
      this.requeue(card, change, now, now + Math.max(wait, delays[card.finalAttempts - 1]!));
      return;
    }
    if (!card.finalRetriedAgain) {
      card.finalRetriedAgain = true;
      card.finalAttempts = 0;
      // A rate limit says nothing against the message: a fresh one would be a duplicate card and
      // leave this one spinning, so the retries start over on the same message.
      if (failure.kind !== 'rate-limited') {
        // The message keeps refusing the final: send it as a fresh message instead.
        // (No message yet: the send is simply tried again, under a new key.)
        if (card.messagePhase === 'live') {
          card.freshFinal = true;
          card.movedFrom = card.message;
          card.moveMessageTo('gone');
        }
        card.renewMessage();
      }
      this.requeue(card, change, now, now + wait);
      return;
    }
    this.finish(card, false, failure.detail);
  }

  private requeue(card: CardDelivery, change: 'terminal' | 'structural' | 'elapsed', now: number, retryAt = now): void {
    card.retryAt = retryAt;
    card.mark(change, now);
  }

  private finish(card: CardDelivery, ok: boolean, error?: string): void {
    card.moveTo(ok ? 'delivered' : 'undeliverable');
    if (!ok) this.logger.error('final undeliverable: every retry failed', { card: card.source.id, channel: this.plugin.id, attempts: card.finalAttemptsTotal, error });
    card.dirty = undefined;
    const view = card.source.view();
    if (ok && card.movedFrom) {
      const { renderer, transport } = this.plugin;
      void closeMovedMessage({ message: card.movedFrom, finalView: view, renderer, transport, budget: this.budget, logger: this.logger });
    }
    card.source.onFinal({
      ok,
      status: view.status,
      message: card.message,
      freshMessage: card.replaced || card.freshFinal,
      attempts: card.finalAttemptsTotal,
      error,
    });
  }

  private resolveIdle(): void {
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
  }
}
