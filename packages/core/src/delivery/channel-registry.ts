import type { ChannelPlugin } from '../plugin/contract.js';
import { resolveChannelSettings } from '../plugin/channel-settings.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { BudgetStore } from './rate-limits/budget-store.js';
import type { CardLeases } from './durable/card-leases.js';
import type { CardStore } from './durable/card-store.js';
import { ChannelDispatcher } from './channel-dispatcher.js';
import type { DeliveryObservers } from './delivery-observers.js';
import type { RetrySettings } from './failures/retry-settings.js';

/** What a {@link ChannelRegistry} is built from (the composition root resolves these). */
export interface ChannelRegistryDeps {
  /** Delivery time (`TOKENS.DeliveryClock`): rate-limit windows, retry waits, leases. */
  readonly clock: Clock;
  readonly logger: Logger;
  /** Read for `<CHANNEL>_CARD_TOOL_TICK_MS`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly retry: RetrySettings;
  readonly budgets: BudgetStore;
  readonly cards: CardStore;
  /** The composition's `delivery` listeners. */
  readonly observers: DeliveryObservers;
  /** The composition's leases on its stored cards. */
  readonly leases: CardLeases;
}

/**
 * The channels of one composition: one {@link ChannelDispatcher} (settings, per-card flushes,
 * retries) per registered channel plugin. Budgets live in the {@link BudgetStore}, so two
 * compositions share a budget only when they are given the same store.
 */
export class ChannelRegistry {
  private readonly channels = new Map<string, ChannelDispatcher>();

  constructor(private readonly deps: ChannelRegistryDeps) {}

  /**
   * Registers a channel.
   * @throws Error when the id is malformed or already registered, or its settings are invalid.
   */
  addChannel(plugin: ChannelPlugin): ChannelDispatcher {
    if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) {
      throw new Error(`channel id must be lowercase letters, digits and dashes, got ${JSON.stringify(plugin.id)}`);
    }
    if (this.channels.has(plugin.id)) throw new Error(`channel ${JSON.stringify(plugin.id)} is registered twice`);
    const settings = resolveChannelSettings(plugin, this.deps.env, this.deps.logger);
    // Delivery runs on the delivery clock (wall time by default: platform limits are in wall time),
    // not on card time, which a replay may run faster than real time.
    const { clock, logger, retry, budgets, cards, leases, observers } = this.deps;
    const dispatcher = new ChannelDispatcher({ plugin, settings, clock, logger, retry, budgets, cards, leases, observers });
    this.channels.set(plugin.id, dispatcher);
    return dispatcher;
  }

  /** @throws Error naming the unknown id and the registered ones. */
  channel(id: string): ChannelDispatcher {
    const dispatcher = this.channels.get(id);
    if (!dispatcher) {
      throw new Error(`unknown channel ${JSON.stringify(id)}; registered: ${[...this.channels.keys()].join(', ') || '(none)'}`);
    }
    return dispatcher;
  }

  /** Registered channel ids. */
  get channelIds(): string[] {
    return [...this.channels.keys()];
  }

  /** Every registered channel's dispatcher. */
  get dispatchers(): ChannelDispatcher[] {
    return [...this.channels.values()];
  }

  /** Resolves when no card of any channel has a flush pending or in flight. */
  async idle(): Promise<void> {
    await Promise.all([...this.channels.values()].map((channel) => channel.idle()));
  }

  /** Stops every channel's wake timer. */
  /** Closes every channel for shutdown (see `ChannelDispatcher.close`); resolves when no call is in flight. */
  async close(error: string): Promise<void> {
    await Promise.all([...this.channels.values()].map((channel) => channel.close(error)));
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
  }
}
