import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { ChannelSettings, ChannelPlugin, Requester } from './plugin/contract.js';
import { DEFAULT_FEATURE_SWITCHES } from './plugin/kit/switches.js';
import { capCallsPerMessage } from './runtime/call-cap.js';
import { CompletionPinger } from './runtime/completion-ping.js';
import { FinalOnlyCard } from './runtime/final-only-card.js';
import { isTerminalStatus } from './card/view.js';
import { InMemoryBudgetStore, type BudgetStore } from './delivery/budget-store.js';
import type { FinalDelivery } from './delivery/card-delivery-record.js';
import { CardLeases, DEFAULT_LEASE_TTL_MS } from './delivery/card-leases.js';
import { cardStoreReportingOutages } from './delivery/card-store-outage.js';
import { InMemoryCardStore, type CardLease, type CardStore, type StoredCard } from './delivery/card-store.js';
import type { ChannelStats } from './delivery/channel-dispatcher.js';
import { ChannelRegistry } from './delivery/channel-registry.js';
import { DeliveryObservers, type DeliveryListener } from './delivery/delivery-observers.js';
import { checkRetrySettings, DEFAULT_RETRY_SETTINGS, type RetrySettings } from './delivery/retry-settings.js';
import { checkTimerMs, sleepMs } from './shared/timer-duration.js';
import { systemClock, type Clock } from './shared/clock.js';
import { consoleLogger, type Logger } from './shared/logger.js';
import { LiveProgressCard } from './runtime/live-progress-card.js';
import type { OpenCardOptions, ProgressCard } from './runtime/progress-card.js';
import { checkStallSettings, DEFAULT_STALL_SETTINGS, type StallSettings } from './runtime/stall-watch.js';
import { finalWithin, INTERRUPTED_REASONS, shutdownOptions, type ShutdownOptions } from './runtime/shutdown.js';
import { DEFAULT_ORPHAN_GRACE_MS, OrphanSweeper } from './runtime/orphan-sweeper.js';
import { TickerService } from './runtime/ticker.js';
import { InteractionRouter } from './interaction/router.js';
import type { ClickReply } from './plugin/contract.js';
import type { InteractionUser } from './events/contract.js';
import { TOKENS } from './runtime/tokens.js';
import { DEFAULT_CALL_TIMEOUT_MS } from './delivery/call-timeout.js';

export type { OpenOptions, ProgressCards, ProgressCardsDiagnostics, ProgressCardsOptions, ProgressCardsStore } from './runtime/progress-cards.js';
import type { OpenOptions, ProgressCards, ProgressCardsOptions } from './runtime/progress-cards.js';

/** Registers `value` under `token`; without one, keeps the parent's registration or else registers `fallback`. */
function provide<T>(container: DependencyContainer, token: InjectionToken<T>, value: T | undefined, fallback: (c: DependencyContainer) => T): void {
  if (value !== undefined) container.register(token, { useValue: value });
  else if (!container.isRegistered(token, true)) container.register(token, { useFactory: instanceCachingFactory(fallback) });
}

/**
 * The composition root: a tsyringe child container with the seams that vary (clock, logger, env,
 * channel plugins, retry settings, `BudgetStore`, `CardStore`; see {@link TOKENS}) and factories for
 * the services built on them ({@link TickerService}, {@link ChannelRegistry}). Two compositions share
 * only what their parent container gives both: by default each has its own budgets, ticker and timers.
 *
 * @throws Error when a channel id is malformed or given twice, or a channel's settings or the stall settings are invalid.
 */
export function createProgressCards(options: ProgressCardsOptions): ProgressCards {
  const stall = checkStallSettings({ ...DEFAULT_STALL_SETTINGS, ...options.stall });
  const container = (options.parent ?? rootContainer).createChildContainer();
  provide(container, TOKENS.Clock, options.clock, () => systemClock);
  provide(container, TOKENS.Logger, options.logger, () => consoleLogger);
  provide(container, TOKENS.Env, options.env, () => process.env);
  const inheritedRetry = container.isRegistered(TOKENS.RetrySettings, true) ? container.resolve(TOKENS.RetrySettings) : DEFAULT_RETRY_SETTINGS;
  container.register(TOKENS.RetrySettings, { useValue: checkRetrySettings({ ...inheritedRetry, ...options.retry }) });
  provide(container, TOKENS.BudgetStore, options.store?.budgets, () => new InMemoryBudgetStore());
  provide(container, TOKENS.CardStore, options.store?.cards, () => new InMemoryCardStore());
  const leaseTtlMs = checkTimerMs('leaseTtlMs', options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS, 1);
  const orphanGraceMs = checkTimerMs('orphanGraceMs', options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS, 0);
  // One warning per store outage for the whole composition (writes, renewals and sweeps share it).
  const cardStore = cardStoreReportingOutages(container.resolve(TOKENS.CardStore), container.resolve(TOKENS.Logger));
  const leases = new CardLeases(cardStore, systemClock, container.resolve(TOKENS.Logger), randomUUID(), leaseTtlMs, options.store !== undefined);
  // A channel with a per-run call cap gets its transport wrapped before the registry sees it.
  let tickOf: (channelId: string) => number = () => 0;
  for (const given of options.channels) {
    const cap = given.switches?.runCallCap;
    const plugin = cap
      ? { ...given, transport: capCallsPerMessage(given.transport, cap, () => tickOf(given.id), options.clock ?? systemClock) }
      : given;
    container.register(TOKENS.ChannelPlugin, { useValue: plugin });
  }
  container.register(DeliveryObservers, { useFactory: instanceCachingFactory((c) => new DeliveryObservers(c.resolve(TOKENS.Logger))) });
  container.register(TickerService, { useFactory: instanceCachingFactory((c) => new TickerService(c.resolve(TOKENS.Logger))) });
  container.register(ChannelRegistry, {
    useFactory: instanceCachingFactory((c) => new ChannelRegistry({
      logger: c.resolve(TOKENS.Logger),
      env: c.resolve(TOKENS.Env),
      retry: c.resolve(TOKENS.RetrySettings),
      budgets: c.resolve(TOKENS.BudgetStore),
      cards: cardStore,
      observers: c.resolve(DeliveryObservers),
      leases,
    })),
  });

  const registry = container.resolve(ChannelRegistry);
  const observers = container.resolve(DeliveryObservers);
  const ticker = container.resolve(TickerService);
  const clock = container.resolve(TOKENS.Clock);
  const logger = container.resolve(TOKENS.Logger);
  const plugins = container.isRegistered(TOKENS.ChannelPlugin, true) ? container.resolveAll(TOKENS.ChannelPlugin) : [];
  for (const plugin of plugins) registry.addChannel(plugin);
  tickOf = (channelId) => registry.channel(channelId).settings.tickMs;
  const live = new Set<LiveProgressCard>();
  const interactions = new InteractionRouter(logger);
  let shutDown = false;
  const heldCards = new Set<FinalOnlyCard>();
  const pings = new Set<Promise<unknown>>();
  const pingers = new Map(
    plugins.map((plugin) => [
      plugin.id,
      new CompletionPinger({
        plugin,
        settings: plugin.switches?.completionPing,
        acquire: (call) => registry.channel(plugin.id).acquire(call),
        callTimeoutMs: () => registry.channel(plugin.id).settings.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        logger,
      }),
    ]),
  );

  /** Cards this composition claimed from the store (resumed or being ended), until their final. */
  const claimed = new Set<string>();
  const claim = async (card: StoredCard): Promise<CardLease | undefined> => {
    if (claimed.has(card.cardId)) return undefined;
    claimed.add(card.cardId);
    const now = systemClock.now();
    const lease = await cardStore.claim(card.cardId, leases.owner, now + leaseTtlMs, now).catch((error: unknown) => {
      claimed.delete(card.cardId);
      throw error;
    });
    if (!lease) claimed.delete(card.cardId);
    else leases.adopt(card.cardId, lease);
    return lease;
  };

  /** Opens a card: a new one, or (with `stored`) one continuing a stored card this composition claimed. */
  function openCard(channelId: string, target: unknown, openOptions: OpenOptions, stored?: StoredCard, wrap = true): ProgressCard {
    const channel = registry.channel(channelId);
    const switches = channel.plugin.switches ?? DEFAULT_FEATURE_SWITCHES;
    // The requester decides the card's questions and is mentioned by the completion ping.
    const { requester, runId, ...cardOptions } = openOptions;
    if (runId !== undefined && (typeof runId !== 'string' || runId === '')) throw new Error(`runId = ${JSON.stringify(runId)}: must be a non-empty string`);
    const resolved: OpenCardOptions = { ...cardOptions, requester, cardPer: cardOptions.cardPer ?? switches.cardPer };
    const card = new LiveProgressCard({ channel, ticker, clock, logger, interactions, stall }, target, resolved, runId ?? stored?.runId, stored);
    live.add(card);
    const handle: ProgressCard = switches.progressive || !wrap ? card : new FinalOnlyCard(card, clock, logger, resolved, switches.locale);
    if (handle instanceof FinalOnlyCard) heldCards.add(handle);
    void card.finalDelivery.then((final) => {
      live.delete(card);
      if (stored) claimed.delete(stored.cardId);
      if (handle instanceof FinalOnlyCard) heldCards.delete(handle);
      const ping = pingers.get(channelId)!.afterFinal({ id: card.id, target, view: handle.view(), requester }, final);
      pings.add(ping);
      void ping.then(() => pings.delete(ping));
    });
    return handle;
  }

  /** Ends a card whose process stopped: the stored message shows it was interrupted (best effort). */
  function endInterrupted(stored: StoredCard, lease: CardLease): void {
    if (shutDown || !stored.message || isTerminalStatus(stored.status)) {
      claimed.delete(stored.cardId);
      leases.release(stored.cardId);
      if (!shutDown) void cardStore.delete(stored.cardId, lease.fencingToken).catch(() => undefined);
      return;
    }
    logger.warn('ending a card its stopped process left open', { card: stored.cardId, run: stored.runId, channel: stored.channelId });
    openCard(stored.channelId, stored.target, {}, stored, false).cancel(INTERRUPTED_REASONS[stored.locale] ?? INTERRUPTED_REASONS.en);
  }

  const sweeper = options.store
    ? new OrphanSweeper({
        store: cardStore,
        clock: systemClock,
        logger,
        owner: leases.owner,
        leaseTtlMs,
        graceMs: orphanGraceMs,
        hasChannel: (channelId) => registry.channelIds.includes(channelId),
        claim,
        end: endInterrupted,
      })
    : undefined;
  sweeper?.start();

  return {
    open(channelId, target, openOptions = {}) {
      if (shutDown) throw new Error(`cannot open a card on ${JSON.stringify(channelId)}: this ProgressCards was shut down (create a new composition to open cards again)`);
      return openCard(channelId, target, openOptions);
    },
    async resume(runId, resumeOptions = {}) {
      const named = `resume(${JSON.stringify(runId)})`;
      if (typeof runId !== 'string' || runId === '') throw new Error(`resume(runId): runId must be a non-empty string, got ${JSON.stringify(runId)}`);
      if (shutDown) throw new Error(`${named}: this ProgressCards was shut down`);
      const runs = (await cardStore.list()).filter((card) => card.runId === runId);
      const stored = runs.find((card) => !isTerminalStatus(card.status)) ?? runs[0];
      if (!stored) throw new Error(`${named}: no open card of this run in the card store`);
      registry.channel(stored.channelId);
      if (claimed.has(stored.cardId) || [...live].some((card) => card.runId === runId)) throw new Error(`${named}: the run is already open in this composition`);
      let lease = await claim(stored);
      if (!lease) {
        // Its owner may have stopped without our knowing yet: wait for the lease to run out once.
        const wait = stored.lease.expiresAt - systemClock.now() + 1;
        await sleepMs(wait);
        const again = await cardStore.get(stored.cardId);
        if (!again) throw new Error(`${named}: the card was ended meanwhile`);
        if (claimed.has(again.cardId)) throw new Error(`${named}: its grace passed, the card is being ended as interrupted`);
        lease = await claim(again);
        if (!lease) throw new Error(`${named}: a live process holds the card (owner ${again.lease.owner}, lease renewed until ${new Date(again.lease.expiresAt).toISOString()})`);
      }
      const current = (await cardStore.get(stored.cardId)) ?? stored;
      return openCard(current.channelId, current.target, { requester: resumeOptions.requester }, current);
    },
    settings: (channelId) => registry.channel(channelId).settings,
    stats: (channelId) => registry.channel(channelId).stats,
    diagnostics() {
      const loads = registry.dispatchers.map((dispatcher) => dispatcher.load);
      return {
        openCards: live.size,
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
      const { reason, deadlineMs } = shutdownOptions(input);
      const startedAt = Date.now();
      shutDown = true;
      // Cards holding their updates until the final: a started one ends as cancelled and is posted.
      for (const held of heldCards) {
        if (held.started && (held.status === 'running' || held.status === 'waiting')) held.cancel(reason ?? INTERRUPTED_REASONS[held.view().locale]);
      }
      const cards = [...live];
      for (const card of cards) {
        const why = reason ?? INTERRUPTED_REASONS[card.view().locale];
        // A card no event reached has posted nothing: it ends without a message.
        if (card.endIfNeverStarted(why)) continue;
        if (card.status === 'running' || card.status === 'waiting') card.cancel(why);
      }
      const results = await Promise.all(cards.map((card) => finalWithin(card.finalDelivery, deadlineMs, () => card.status)));
      // Earlier cards of a card-per-turn run may still be retrying their finals: let them finish too.
      // One deadline for all of it: what the finals used is not granted twice.
      let timer: NodeJS.Timeout | undefined;
      const left = Math.max(0, deadlineMs - (Date.now() - startedAt));
      const rest = Promise.all([registry.idle(), Promise.all([...pings])]);
      await Promise.race([rest, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
      await interactions.close();
      ticker.dispose();
      registry.dispose();
      sweeper?.dispose();
      leases.dispose();
      return results;
    },
  };
}
