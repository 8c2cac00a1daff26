import type { DependencyContainer } from 'tsyringe';
import type { InteractionUser } from '../events/contract.js';
import type { BudgetStore } from '../delivery/rate-limits/budget-store.js';
import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { CardStore } from '../delivery/durable/card-store.js';
import type { ClickRelay } from '../interaction/click-relay.js';
import type { ChannelStats } from '../delivery/channel-dispatcher.js';
import type { DeliveryListener } from '../delivery/delivery-observers.js';
import type { RetrySettings } from '../delivery/failures/retry-settings.js';
import type { ChannelPlugin, ChannelSettings, ClickReply, Requester } from '../plugin/contract.js';
import type { AppPool } from '../plugin/app-pool.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { OpenCardOptions, ProgressCard } from './progress-card.js';
import type { ShutdownOptions } from './shutdown.js';
import type { StallSettings } from './stall-watch.js';

/**
 * Where a composition keeps API budgets and open cards when several processes share them, e.g.
 * `await redisStore({ url })` from `@progresscard/redis`. Every process of one app gets the same
 * store (the same Redis): together they stay within the platform's limits, and a process that
 * starts takes over the cards a stopped one left (see `ProgressCards.resume`).
 */
export interface ProgressCardsStore {
  readonly budgets: BudgetStore;
  readonly cards: CardStore;
  /**
   * How a click reaching any process is handed to the process owning the card (default: an
   * in-memory relay, which reaches only compositions of this process).
   */
  readonly clicks?: ClickRelay;
}

/** Options of `createProgressCards`. */
export interface ProgressCardsOptions {
  /**
   * The channels cards can be opened on, e.g. `[feishu(cfg), dingtalk(cfg)]` (default: those the
   * parent registers). An {@link AppPool} (`appPool([feishu(app1), feishu(app2)])`) is one channel
   * over several apps: cards are opened on its id and each goes through one app, sticky per chat.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each channel has its own payload and target types; the core passes them through without looking inside.
  readonly channels: readonly (ChannelPlugin<any, any> | AppPool<any, any>)[];
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
   * With a `store`: how long a click for a card of another process waits for that process's
   * answer before the user hears that the card's process is not answering, ms (default 2 000: the
   * answer must reach Feishu within 3 s). An integer from 1 to `MAX_TIMER_MS`.
   */
  readonly clickForwardTimeoutMs?: number;
  /**
   * When a run nobody feeds counts as stalled (`stallMs`, default 10 min: the card says "no
   * progress since …" and stops ticking) and when it is given up (`abandonMs`, default 30 min: the
   * card ends as failed with that reason). A later event resumes a stalled card.
   */
  readonly stall?: Partial<StallSettings>;
  /**
   * Parent container (default tsyringe's root container; get one from `createContainer()`). Whatever it registers under {@link TOKENS}
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
   * events update that message. Events from before the restart are not replayed. With a shared
   * click relay (`store.clicks`), it claims the card only once this process listens for the clicks
   * other processes hand it, so a click on the card's buttons right after it resolved is answered.
   * @throws Error (as a rejection) when no open card of `runId` is stored, its channel is not in this
   *   composition, a live process keeps renewing its lease, or the composition was shut down.
   */
  resume(runId: string, options?: Pick<OpenOptions, 'requester'>): Promise<ProgressCard>;
  /**
   * Effective settings of a channel (defaults ← config ← env); of an app pool's id, its first app's
   * (each app also answers by its own id, `feishu-app2`). @throws Error naming an unknown channel id.
   */
  settings(channelId: string): ChannelSettings;
  /**
   * Call counters of a channel since the composition was created; of an app pool's id, summed over
   * its apps (each app also answers by its own id). @throws Error naming an unknown channel id.
   */
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
   * once). Resolves the reply to send back, or undefined when the text is not a reply to an open
   * question. With a `store`, a question of another process of the app is answered by that process.
   */
  reply(text: string, user: InteractionUser, deliveryId: string): Promise<ClickReply | undefined>;
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
