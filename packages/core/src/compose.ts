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
import type { ClickReply } from './interaction/types.js';
import type { InteractionUser } from './events/contract.js';
import { TOKENS } from './runtime/tokens.js';
import { DEFAULT_CALL_TIMEOUT_MS } from './delivery/call-timeout.js';

/**
 * Where a composition keeps API budgets and open cards when several processes share them, e.g.
 * `await redisStore({ url })` from `@progresscard/redis`. Every process of one app gets the same
 * store (the same Redis): together they stay within the platform's limits, and a process that
 * starts takes over the cards a stopped one left (see `ProgressCards.resume`).
 */
export interface ProgressCardsStore {
  readonly budgets: BudgetStore;
  readonly cards: CardStore;
}

/** Options of {@link createProgressCards}. */
export interface ProgressCardsOptions {
  /** The channels cards can be opened on, e.g. `[feishu(cfg), dingtalk(cfg)]` (default: those the parent registers). */
  // biome-ignore lint/suspicious/noExplicitAny: each channel has its own payload and target types; the core passes them through without looking inside.
  readonly channels: readonly ChannelPlugin<any, any>[];
  /** Time source (default the parent's, else the wall clock). */
  readonly clock?: Clock;
  /** Where warnings go (default the parent's, else stderr). */
  readonly logger?: Logger;
  /** Read for `<CHANNEL>_CARD_TOOL_TICK_MS` (default the parent's, else `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Retry timing (default 1 s / 2 s / 4 s backoff, pause after 3 consecutive failures). */
  readonly retry?: Partial<RetrySettings>;
  /**
   * Shared budgets and card state (default: in this process's memory, or the parent's). With a
   * store, the composition renews the leases of its cards while it lives, and looks for cards whose
   * owner's lease expired: see {@link ProgressCards.resume} and `orphanGraceMs`.
   */
  readonly store?: ProgressCardsStore;
  /**
   * How long a card's lease lasts without renewal, ms (default 30 000; renewed every third of it).
   * A killed process's cards can be resumed or ended this long after its last renewal.
   */
  readonly leaseTtlMs?: number;
  /**
   * How long after its lease expired a card nobody resumed is ended as interrupted ("进程重启，任务已中断" /
   * "interrupted by a restart"), ms (default 60 000). Only with a `store`.
   */
  readonly orphanGraceMs?: number;
  /**
   * When a run nobody feeds counts as stalled (`stallMs`, default 10 min: the card says "no
   * progress since …" and stops ticking) and when it is given up (`abandonMs`, default 30 min: the
   * card ends as failed with that reason). A later event resumes a stalled card.
   */
  readonly stall?: Partial<StallSettings>;
  /**
   * Parent container (default tsyringe's root container). Whatever it registers under {@link TOKENS}
   * and the options do not give is used: e.g. one `BudgetStore` shared by two compositions.
   */
  readonly parent?: DependencyContainer;
}

/** Options of {@link ProgressCards.open}: the card's own, and who asked for the run. */
export interface OpenOptions extends OpenCardOptions {
  /** Who asked for the run: the completion ping mentions them (when the channel's switch is on). */
  readonly requester?: Requester;
  /**
   * The product's id for the run (default the card's id): stored with the card, so that a process
   * started after this one stopped can continue it with `ProgressCards.resume(runId)`.
   */
  readonly runId?: string;
}

/** A snapshot of a composition's moving parts, for health checks and tests. */
export interface ProgressCardsDiagnostics {
  /** Cards opened whose final was not reported yet. */
  readonly openCards: number;
  /** Cards whose running tools' elapsed times are ticking. */
  readonly tickingCards: number;
  /** Live tick interval timers (one per distinct tick interval in use; 0 when no tool runs). */
  readonly tickTimers: number;
  /** Channel wake timers set (one at most per channel, while a flush waits for its time). */
  readonly wakeTimers: number;
  /** Card messages with a flush pending or in flight, over all channels. */
  readonly pendingCards: number;
  /** Platform calls in flight now, over all channels. */
  readonly inFlight: number;
  /** Channels where a ready card waits for a budget slot now (the platform's limit is the bottleneck). */
  readonly channelsAtBudget: number;
}

/** A composition: the cards of one agent product, over its own channels and ticker. */
export interface ProgressCards {
  /**
   * Opens a card for one run. `target` overrides the channel's configured destination
   * (plugin-specific, e.g. a chat id). The channel's feature switches apply: `cardPer` unless
   * `options.cardPer` is given; `progressive: false` holds every update until the run ends and then
   * sends one card; `completionPing` replies once to the card after a long run.
   * @throws Error naming an unknown channel id, or saying the composition was shut down.
   */
  open(channelId: string, target?: unknown, options?: OpenOptions): ProgressCard;
  /**
   * Continues a run whose process stopped (a restart, a crash): finds its open card in the card
   * store, waits until its owner's lease expired (at most one lease), claims it and returns a card
   * that updates the same message. Running tool calls keep their original start times; later
   * events update that message. Events from before the restart are not replayed.
   * @throws Error (as a rejection) when no open card of `runId` is stored, its channel is not in this
   *   composition, a live process keeps renewing its lease, or the composition was shut down.
   */
  resume(runId: string, options?: Pick<OpenOptions, 'requester'>): Promise<ProgressCard>;
  /** Effective settings of a channel (defaults ← config ← env). @throws Error naming an unknown channel id. */
  settings(channelId: string): ChannelSettings;
  /** Call counters of a channel since the composition was created. @throws Error naming an unknown channel id. */
  stats(channelId: string): ChannelStats;
  /** Open cards, timers and calls in flight right now. */
  diagnostics(): ProgressCardsDiagnostics;
  /**
   * Subscribes to every platform call of this composition's cards, once each call settled: channel,
   * card, which call, latency (ms), result, failure kind, whether it carried the final, which try.
   * Enough to feed metrics (a counter per result and failure kind, a latency histogram). The
   * listener runs synchronously after each call; one that throws is logged once and never breaks
   * a delivery.
   * @returns a function that removes the listener.
   * @throws Error naming the event when it is not `delivery`.
   */
  on(event: 'delivery', listener: DeliveryListener): () => void;
  /**
   * Feeds a chat message typed as a reply to a card question (`/approve 3F2A`, `/answer 3F2A text`:
   * what a card shows when its channel has no callbacks configured). `deliveryId` is the chat
   * message id. The click rules apply (allowed users, first wins, a re-delivered message counts
   * once). Returns the reply to send back, or undefined when the text is not a reply to an open question.
   */
  reply(text: string, user: InteractionUser, deliveryId: string): ClickReply | undefined;
  /**
   * Resolves when no card has anything left to send. While awaited it keeps the process alive (the
   * delivery timers it waits for are ref'd), so a script may end with `await cards.idle()`.
   */
  idle(): Promise<void>;
  /**
   * Ends every card still running as cancelled (default reason: "interrupted by a restart" in the
   * card's language), waits for their finals (and those of earlier turns in card-per-turn mode) at
   * most `deadlineMs` (default 8000; a final not settled by then is reported `ok: false`), and stops
   * all timers. Call it before the process exits so no card is left spinning (or use
   * `installShutdownHandlers`). A card opened but never fed an event posts nothing: its final
   * resolves `{ ok: true, status: 'cancelled', attempts: 0, skipped: 'never-started' }`. After it,
   * `open()` is refused. Takes the reason as a string too.
   * @throws Error (as a rejection) naming `deadlineMs` when it is not a non-negative integer.
   */
  shutdown(options?: string | ShutdownOptions): Promise<FinalDelivery[]>;
}

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
