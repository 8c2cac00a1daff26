import { randomUUID } from 'node:crypto';
import { instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { InMemoryBudgetStore, type BudgetStore } from '../delivery/rate-limits/budget-store.js';
import { CardLeases } from '../delivery/durable/card-leases.js';
import { cardStoreReportingOutages } from '../delivery/durable/card-store-outage.js';
import { InMemoryCardStore, type CardStore } from '../delivery/durable/card-store.js';
import { ChannelRegistry } from '../delivery/channel-registry.js';
import { DeliveryObservers } from '../delivery/delivery-observers.js';
import { checkRetrySettings, DEFAULT_RETRY_SETTINGS, type RetrySettings } from '../delivery/failures/retry-settings.js';
import { InteractionRouter, type ClickRouting } from '../interaction/router.js';
import { InMemoryClickRelay, type ClickRelay } from '../interaction/click-relay.js';
import { isTerminalStatus } from '../card/view.js';
import type { ChannelPlugin } from '../plugin/contract.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { consoleLogger, type Logger } from '../shared/logger.js';
import { CardSessions } from './card-sessions.js';
import { Takeover } from './takeover.js';
import type { StoredChannel } from './app-pools.js';
import type { ProgressCard } from './progress-card.js';
import type { StallSettings } from './stall-watch.js';
import { TickerService } from './ticker.js';
import { TOKENS } from './tokens.js';

/** What one composition was configured with (checked), beside its seams. */
export interface CompositionSettings {
  readonly stall: StallSettings;
  readonly leaseTtlMs: number;
  readonly orphanGraceMs: number;
  /** True when the cards live in a store shared with other processes: leases are renewed and orphans swept. */
  readonly durable: boolean;
  /** This composition's owner id on card leases. */
  readonly owner: string;
  /** How long a click handed to the card's owner process may take to answer, ms. */
  readonly clickForwardTimeoutMs: number;
}

/**
 * Tokens of the services the composition builds for itself from the seams in {@link TOKENS}; not
 * for products to register (they are internals of the core and may change).
 */
export const SERVICES = {
  Settings: Symbol('progresscard.CompositionSettings') as InjectionToken<CompositionSettings>,
  /** The `CardStore` as delivery uses it: one warning per store outage for the whole composition. */
  GuardedCardStore: Symbol('progresscard.GuardedCardStore') as InjectionToken<CardStore>,
  Leases: CardLeases as InjectionToken<CardLeases>,
  Observers: DeliveryObservers as InjectionToken<DeliveryObservers>,
  Registry: ChannelRegistry as InjectionToken<ChannelRegistry>,
  Interactions: InteractionRouter as InjectionToken<InteractionRouter>,
  Sessions: CardSessions as InjectionToken<CardSessions>,
  Takeover: Takeover as InjectionToken<Takeover>,
  /** Whether the composition was shut down (set by its `shutdown`). */
  Lifecycle: Symbol('progresscard.Lifecycle') as InjectionToken<{ shutDown: boolean }>,
} as const;

/** What {@link registerProviders} takes from `createProgressCards`' options. */
export interface ProviderOptions {
  readonly settings: Omit<CompositionSettings, 'owner'>;
  // biome-ignore lint/suspicious/noExplicitAny: each channel has its own payload and target types; the core passes them through without looking inside.
  readonly channels: readonly ChannelPlugin<any, any>[];
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly retry?: Partial<RetrySettings>;
  readonly budgets?: BudgetStore;
  readonly cards?: CardStore;
  readonly clicks?: ClickRelay;
  /** Where a card stored under a channel id goes now (the app pools' `AppPools.storedChannel`); default: its own channel, when registered. */
  readonly storedChannel?: (channelId: string, target: unknown, registry: ChannelRegistry, appIdentity?: string) => StoredChannel | undefined;
  /** Told of every card opened, new or continued from the card store (the app pools count it on its app: `AppPools.opened`). */
  readonly cardOpened?: (card: ProgressCard, target: unknown) => void;
}

/** Registers `value` under `token`; without one, keeps the parent's registration or else registers the `fallback` provider. */
function provide<T>(container: DependencyContainer, token: InjectionToken<T>, value: T | undefined, fallback: (c: DependencyContainer) => T): void {
  if (value !== undefined) container.register(token, { useValue: value });
  else if (!container.isRegistered(token, true)) container.register(token, { useFactory: instanceCachingFactory(fallback) });
}

/** Registers a factory (built once per container on first resolve). */
function factory<T>(container: DependencyContainer, token: InjectionToken<T>, build: (c: DependencyContainer) => T): void {
  container.register(token, { useFactory: instanceCachingFactory(build) });
}

/**
 * Registers every provider of one composition in `container` (a child of the product's parent):
 * the seams of {@link TOKENS} (option ← parent ← default) and the factories of the services built
 * on them. Nothing is built here; `container.resolve` builds each service once, on first use.
 */
export function registerProviders(container: DependencyContainer, options: ProviderOptions): void {
  provide(container, TOKENS.Clock, options.clock, () => systemClock);
  provide(container, TOKENS.DeliveryClock, undefined, () => systemClock);
  provide(container, TOKENS.Logger, options.logger, () => consoleLogger);
  provide(container, TOKENS.Env, options.env, () => process.env);
  const inheritedRetry = container.isRegistered(TOKENS.RetrySettings, true) ? container.resolve(TOKENS.RetrySettings) : DEFAULT_RETRY_SETTINGS;
  container.register(TOKENS.RetrySettings, { useValue: checkRetrySettings({ ...inheritedRetry, ...options.retry }) });
  provide(container, TOKENS.BudgetStore, options.budgets, (c) => new InMemoryBudgetStore(c.resolve(TOKENS.DeliveryClock)));
  provide(container, TOKENS.CardStore, options.cards, () => new InMemoryCardStore());
  // Clicks are handed between processes with a shared store, or when a relay is given explicitly.
  const routesClicks = options.settings.durable || options.clicks !== undefined || container.isRegistered(TOKENS.ClickRelay, true);
  provide(container, TOKENS.ClickRelay, options.clicks, () => new InMemoryClickRelay());
  provide(container, TOKENS.Ticker, undefined, (c) => new TickerService(c.resolve(TOKENS.Logger)));
  container.register(SERVICES.Settings, { useValue: { ...options.settings, owner: randomUUID() } });
  for (const plugin of options.channels) container.register(TOKENS.ChannelPlugin, { useValue: plugin });

  factory(container, SERVICES.GuardedCardStore, (c) => cardStoreReportingOutages(c.resolve(TOKENS.CardStore), c.resolve(TOKENS.Logger)));
  factory(container, SERVICES.Leases, (c) => {
    const { owner, leaseTtlMs, durable } = c.resolve(SERVICES.Settings);
    return new CardLeases(c.resolve(SERVICES.GuardedCardStore), c.resolve(TOKENS.DeliveryClock), c.resolve(TOKENS.Logger), owner, leaseTtlMs, durable);
  });
  factory(container, SERVICES.Observers, (c) => new DeliveryObservers(c.resolve(TOKENS.Logger)));
  factory(container, SERVICES.Interactions, (c) => {
    const { owner, clickForwardTimeoutMs } = c.resolve(SERVICES.Settings);
    const store = c.resolve(SERVICES.GuardedCardStore);
    const routing: ClickRouting | undefined = routesClicks
      ? {
          relay: c.resolve(TOKENS.ClickRelay),
          owner,
          forwardTimeoutMs: clickForwardTimeoutMs,
          async ownerOf(cardId) {
            const card = await store.get(cardId);
            return card && { owner: card.lease.owner, open: !isTerminalStatus(card.status), locale: card.locale };
          },
        }
      : undefined;
    return new InteractionRouter(c.resolve(TOKENS.Logger), routing);
  });
  factory(container, SERVICES.Registry, (c) => {
    const registry = new ChannelRegistry({
      clock: c.resolve(TOKENS.DeliveryClock),
      logger: c.resolve(TOKENS.Logger),
      env: c.resolve(TOKENS.Env),
      retry: c.resolve(TOKENS.RetrySettings),
      budgets: c.resolve(TOKENS.BudgetStore),
      cards: c.resolve(SERVICES.GuardedCardStore),
      observers: c.resolve(SERVICES.Observers),
      leases: c.resolve(SERVICES.Leases),
    });
    const plugins = c.isRegistered(TOKENS.ChannelPlugin, true) ? c.resolveAll(TOKENS.ChannelPlugin) : [];
    // A channel's per-message call cap (`runCallCap`) is a link of its call chain (`delivery/calls/`).
    for (const given of plugins) registry.addChannel(given);
    return registry;
  });
  factory(container, SERVICES.Lifecycle, () => ({ shutDown: false }));
  factory(
    container,
    SERVICES.Sessions,
    (c) =>
      new CardSessions({
        registry: c.resolve(SERVICES.Registry),
        ticker: c.resolve(TOKENS.Ticker),
        clock: c.resolve(TOKENS.Clock),
        logger: c.resolve(TOKENS.Logger),
        interactions: c.resolve(SERVICES.Interactions),
        stall: c.resolve(SERVICES.Settings).stall,
        ...(options.cardOpened && { opened: options.cardOpened }),
      }),
  );
  factory(container, SERVICES.Takeover, (c) => {
    const settings = c.resolve(SERVICES.Settings);
    const lifecycle = c.resolve(SERVICES.Lifecycle);
    return new Takeover({
      store: c.resolve(SERVICES.GuardedCardStore),
      leases: c.resolve(SERVICES.Leases),
      registry: c.resolve(SERVICES.Registry),
      sessions: c.resolve(SERVICES.Sessions),
      clock: c.resolve(TOKENS.DeliveryClock),
      logger: c.resolve(TOKENS.Logger),
      leaseTtlMs: settings.leaseTtlMs,
      orphanGraceMs: settings.orphanGraceMs,
      durable: settings.durable,
      isShutDown: () => lifecycle.shutDown,
      relayListening: c.resolve(SERVICES.Interactions).relayListening,
      storedChannel: (channelId, target, appIdentity) => {
        const registry = c.resolve(SERVICES.Registry);
        return options.storedChannel ? options.storedChannel(channelId, target, registry, appIdentity) : registry.channelIds.includes(channelId) ? { channelId, keepsMessage: true } : undefined;
      },
    });
  });
}
