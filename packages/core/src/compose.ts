import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { FinalDelivery } from './card-delivery.js';
import type { ChannelStats } from './channel-scheduler.js';
import { systemClock, type Clock } from './clock.js';
import { DeliveryScheduler } from './delivery-scheduler.js';
import { consoleLogger, type Logger } from './logger.js';
import type { ChannelDefaults, ChannelPlugin } from './plugin.js';
import { LiveProgressCard, type OpenCardOptions, type ProgressCard } from './progress-card.js';
import { TickerService } from './ticker.js';
import { DEFAULT_DELIVERY_POLICY, TOKENS, type DeliveryPolicy } from './tokens.js';

/** Options of {@link createProgressCards}. */
export interface ProgressCardsOptions {
  /** The channels cards can be opened on, e.g. `[feishu(cfg), dingtalk(cfg)]`. */
  readonly channels: readonly ChannelPlugin<any, any>[];
  /** Time source (default the wall clock). */
  readonly clock?: Clock;
  /** Where warnings go (default stderr). */
  readonly logger?: Logger;
  /** Read for `<CHANNEL>_CARD_TOOL_TICK_MS` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Retry rules (default 1 s / 2 s / 4 s backoff, pause after 3 consecutive failures). */
  readonly policy?: Partial<DeliveryPolicy>;
  /** Parent container to inherit from (default tsyringe's root container). */
  readonly parent?: DependencyContainer;
}

/** A composition: the cards of one agent product, over its own channels, budgets and ticker. */
export interface ProgressCards {
  /**
   * Opens a card for one run. `target` overrides the channel's configured destination
   * (plugin-specific, e.g. a chat id).
   * @throws Error naming an unknown channel id.
   */
  open(channelId: string, target?: unknown, options?: OpenCardOptions): ProgressCard;
  /** Effective settings of a channel (defaults ← config ← env). */
  settings(channelId: string): ChannelDefaults;
  /** Call counters of a channel. */
  stats(channelId: string): ChannelStats;
  /** Resolves when no card has anything left to send. */
  idle(): Promise<void>;
  /**
   * Ends every card still running as cancelled (`reason`), waits for their finals (and those of
   * earlier turns in card-per-turn mode), and stops all timers. Call it before the process exits
   * so no card is left spinning.
   */
  shutdown(reason?: string): Promise<FinalDelivery[]>;
  /** The composition's child container (for advanced wiring). */
  readonly container: DependencyContainer;
}

/**
 * The composition root: wires a tsyringe child container with the given channels, a
 * {@link TickerService} and a {@link DeliveryScheduler}. Two compositions in one process share
 * nothing: each has its own budgets, tick intervals and timers.
 *
 * @throws Error when a channel id is malformed or given twice.
 */
export function createProgressCards(options: ProgressCardsOptions): ProgressCards {
  const container = (options.parent ?? rootContainer).createChildContainer();
  container.register(TOKENS.Clock, { useValue: options.clock ?? systemClock });
  container.register(TOKENS.Logger, { useValue: options.logger ?? consoleLogger });
  container.register(TOKENS.Env, { useValue: options.env ?? process.env });
  container.register(TOKENS.DeliveryPolicy, { useValue: { ...DEFAULT_DELIVERY_POLICY, ...options.policy } });
  container.registerSingleton(TickerService, TickerService);
  container.registerSingleton(DeliveryScheduler, DeliveryScheduler);
  for (const plugin of options.channels) container.register(TOKENS.ChannelPlugin, { useValue: plugin });

  const scheduler = container.resolve(DeliveryScheduler);
  const ticker = container.resolve(TickerService);
  const clock = container.resolve(TOKENS.Clock);
  const logger = container.resolve(TOKENS.Logger);
  const plugins = options.channels.length > 0 ? container.resolveAll(TOKENS.ChannelPlugin) : [];
  for (const plugin of plugins) scheduler.addChannel(plugin);
  const live = new Set<LiveProgressCard>();

  return {
    container,
    open(channelId, target, openOptions) {
      const channel = scheduler.channel(channelId);
      const card = new LiveProgressCard({ channel, ticker, clock, logger }, target, openOptions);
      live.add(card);
      void card.finalDelivery.then(() => live.delete(card));
      return card;
    },
    settings: (channelId) => scheduler.channel(channelId).settings,
    stats: (channelId) => scheduler.channel(channelId).stats,
    idle: () => scheduler.idle(),
    async shutdown(reason = 'shutdown') {
      const cards = [...live];
      for (const card of cards) if (card.status === 'running' || card.status === 'waiting') card.cancel(reason);
      const results = await Promise.all(cards.map((card) => card.finalDelivery));
      // Earlier cards of a card-per-turn run may still be retrying their finals: let them finish too.
      await scheduler.idle();
      ticker.dispose();
      scheduler.dispose();
      return results;
    },
  };
}
