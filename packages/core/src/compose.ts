import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { checkTimerMs } from './shared/timer-duration.js';
import { AppPools } from './runtime/app-pools.js';
import { DEFAULT_LEASE_TTL_MS } from './delivery/durable/card-leases.js';
import { DEFAULT_ORPHAN_GRACE_MS } from './runtime/orphan-sweeper.js';
import type { ProgressCards, ProgressCardsOptions } from './runtime/progress-cards.js';
import { registerProviders, SERVICES } from './runtime/providers.js';
import { shutDownComposition } from './runtime/shutdown-sequence.js';
import { shutdownOptions } from './runtime/shutdown.js';
import { checkStallSettings, DEFAULT_STALL_SETTINGS } from './runtime/stall-watch.js';
import { TOKENS } from './runtime/tokens.js';

/** Default of `ProgressCardsOptions.clickForwardTimeoutMs`, ms: leaves a second of Feishu's 3 s to the network. */
const DEFAULT_CLICK_FORWARD_TIMEOUT_MS = 2000;

export type { OpenOptions, ProgressCards, ProgressCardsDiagnostics, ProgressCardsOptions, ProgressCardsStore } from './runtime/progress-cards.js';

/**
 * A container to register overrides of {@link TOKENS} in and pass as `parent` to
 * {@link createProgressCards}: a child of tsyringe's root container. Getting it from the core
 * (which loads the `reflect-metadata` polyfill tsyringe checks for when it is imported) means a
 * product never has to import `tsyringe` itself, so import order never matters.
 */
export function createContainer(parent: DependencyContainer = rootContainer): DependencyContainer {
  return parent.createChildContainer();
}

/**
 * The composition root: registers the providers of one composition in a tsyringe child container
 * of `options.parent` (see {@link TOKENS}: an option wins over the parent's registration, which wins
 * over the default) and resolves its services from it. Two compositions share only what their
 * parent container gives both: by default each has its own budgets, ticker and timers.
 *
 * @throws Error when a channel id is malformed or given twice (an app pool's id too), or a channel's settings, the stall
 *   settings, `leaseTtlMs` or `orphanGraceMs` are invalid.
 */
export function createProgressCards(options: ProgressCardsOptions): ProgressCards {
  const stall = checkStallSettings({ ...DEFAULT_STALL_SETTINGS, ...options.stall });
  const leaseTtlMs = checkTimerMs('leaseTtlMs', options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS, 1);
  const orphanGraceMs = checkTimerMs('orphanGraceMs', options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS, 0);
  const clickForwardTimeoutMs = checkTimerMs('clickForwardTimeoutMs', options.clickForwardTimeoutMs ?? DEFAULT_CLICK_FORWARD_TIMEOUT_MS, 1);
  const pools = AppPools.of(options.channels);
  const container = createContainer(options.parent);
  registerProviders(container, {
    settings: { stall, leaseTtlMs, orphanGraceMs, clickForwardTimeoutMs, durable: options.store !== undefined },
    channels: pools.plugins,
    clock: options.clock,
    logger: options.logger,
    env: options.env,
    retry: options.retry,
    budgets: options.store?.budgets,
    cards: options.store?.cards,
    clicks: options.store?.clicks,
    storedChannel: (channelId, target, registry, appIdentity) => pools.storedChannel(channelId, target, registry, appIdentity),
    cardOpened: (card, target) => pools.opened(card.channelId, target, card.finalDelivery),
  });

  const registry = container.resolve(SERVICES.Registry);
  const observers = container.resolve(SERVICES.Observers);
  const interactions = container.resolve(SERVICES.Interactions);
  const leases = container.resolve(SERVICES.Leases);
  const ticker = container.resolve(TOKENS.Ticker);
  const sessions = container.resolve(SERVICES.Sessions);
  const takeover = container.resolve(SERVICES.Takeover);
  const lifecycle = container.resolve(SERVICES.Lifecycle);

  return {
    open(channelId, target, openOptions = {}) {
      if (lifecycle.shutDown) throw new Error(`cannot open a card on ${JSON.stringify(channelId)}: this ProgressCards was shut down (create a new composition to open cards again)`);
      return sessions.open(pools.appFor(channelId, target, registry), target, openOptions);
    },
    resume: (runId, resumeOptions = {}) => takeover.resume(runId, resumeOptions.requester),
    settings: (channelId) => registry.channel(pools.appIds(channelId)[0]!).settings,
    stats: (channelId) => pools.stats(channelId, registry),
    diagnostics() {
      const loads = registry.dispatchers.map((dispatcher) => dispatcher.load);
      return {
        openCards: sessions.live.size,
        tickingCards: ticker.watchedCount,
        tickTimers: ticker.timerCount,
        wakeTimers: loads.filter((load) => load.wakeTimerPending).length,
        pendingCards: loads.reduce((sum, load) => sum + load.pendingCards, 0),
        inFlight: loads.reduce((sum, load) => sum + load.inFlight, 0),
        channelsAtBudget: loads.filter((load) => load.waitingForSlot).length,
      };
    },
    on(event, listener) {
      if (event !== 'delivery') throw new Error(`unknown event ${JSON.stringify(event)}; ProgressCards emits: "delivery"`);
      if (typeof listener !== 'function') throw new TypeError(`the "delivery" listener must be a function, got ${typeof listener}`);
      return observers.add(listener);
    },
    reply: (text, user, deliveryId) => interactions.reply(text, user, deliveryId),
    idle: () => registry.idle(),
    async shutdown(input) {
      const checked = shutdownOptions(input);
      lifecycle.shutDown = true;
      return shutDownComposition({ sessions, registry, interactions, ticker, takeover, leases }, checked);
    },
  };
}
