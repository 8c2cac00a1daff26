import type { StoredCard } from '../delivery/durable/card-store.js';
import type { ChannelRegistry } from '../delivery/channel-registry.js';
import type { InteractionRouter } from '../interaction/router.js';
import { DEFAULT_FEATURE_SWITCHES } from '../plugin/kit/switches.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { CompletionPinger } from './completion-ping.js';
import { FinalOnlyCard } from './final-only-card.js';
import { LiveProgressCard } from './live-progress-card.js';
import type { OpenCardOptions, ProgressCard } from './progress-card.js';
import type { OpenOptions } from './progress-cards.js';
import type { StallSettings } from './stall-watch.js';
import type { Ticker } from './ticker.js';

/** What {@link CardSessions} works with (resolved by the composition root). */
export interface CardSessionsDeps {
  readonly registry: ChannelRegistry;
  readonly ticker: Ticker;
  /** Card time. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly interactions: InteractionRouter;
  readonly stall: StallSettings;
  /**
   * Told of every card opened, new or continued from the store, on the channel that delivers it
   * (an app pool counts it on its app until its final settled: `AppPools.opened`).
   */
  readonly opened?: (card: ProgressCard, target: unknown) => void;
}

/**
 * The open cards of one composition: opens a card (a new one, or one continuing a stored card),
 * wraps it in a {@link FinalOnlyCard} when its channel holds updates until the final, and sends
 * the completion ping once its final settled.
 */
export class CardSessions {
  /** Cards opened whose final was not reported yet. */
  readonly live = new Set<LiveProgressCard>();
  /** Cards holding their updates until the final (channel switch `progressive: false`). */
  readonly held = new Set<FinalOnlyCard>();
  /** Completion pings in flight. */
  readonly pings = new Set<Promise<unknown>>();
  private readonly pingers: Map<string, CompletionPinger>;

  constructor(private readonly deps: CardSessionsDeps) {
    const { registry, logger } = deps;
    this.pingers = new Map(
      registry.dispatchers.map(({ plugin }) => [
        plugin.id,
        new CompletionPinger({
          plugin,
          settings: (plugin.switches ?? DEFAULT_FEATURE_SWITCHES).completionPing,
          acquire: (call) => registry.channel(plugin.id).acquire(call),
          platformCall: (call, kind) => registry.channel(plugin.id).platformCall(call, kind),
          logger,
        }),
      ]),
    );
  }

  /**
   * Opens a card: a new one, or (with `stored`) one continuing a stored card the composition
   * claimed. `wrap: false` skips the final-only wrapping (a card being ended as interrupted).
   * `onFinal` runs once its final settled.
   * @throws Error naming an unknown channel id or a malformed `runId`.
   */
  open(channelId: string, target: unknown, openOptions: OpenOptions, stored?: StoredCard, wrap = true, onFinal?: () => void): ProgressCard {
    const { registry, ticker, clock, logger, interactions, stall } = this.deps;
    const channel = registry.channel(channelId);
    const switches = channel.plugin.switches ?? DEFAULT_FEATURE_SWITCHES;
    // The requester decides the card's questions and is mentioned by the completion ping.
    const { requester, runId, completionPing, ...cardOptions } = openOptions;
    if (runId !== undefined && (typeof runId !== 'string' || runId === '')) throw new Error(`runId = ${JSON.stringify(runId)}: must be a non-empty string`);
    const resolved: OpenCardOptions = { ...cardOptions, requester, cardPer: cardOptions.cardPer ?? switches.cardPer };
    const card = new LiveProgressCard({ channel, ticker, clock, logger, interactions, stall }, target, resolved, runId ?? stored?.runId, stored);
    this.live.add(card);
    const handle: ProgressCard = switches.progressive || !wrap ? card : new FinalOnlyCard(card, clock, logger, resolved, switches.locale);
    if (handle instanceof FinalOnlyCard) this.held.add(handle);
    this.deps.opened?.(handle, target);
    void card.finalDelivery.then((final) => {
      this.live.delete(card);
      onFinal?.();
      if (handle instanceof FinalOnlyCard) this.held.delete(handle);
      const ping = this.pingers.get(channelId)!.afterFinal({ id: card.id, target, view: handle.view(), requester, settings: completionPing }, final);
      this.pings.add(ping);
      void ping.then(() => this.pings.delete(ping));
    });
    return handle;
  }

  /** True when a card of `runId` is open in this composition. */
  hasRun(runId: string): boolean {
    return [...this.live].some((card) => card.runId === runId);
  }
}
