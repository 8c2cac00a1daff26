import { createProgressCards, isTerminalStatus, silentLogger, type CardStatus, type CardView, type ChannelStats, type FinalDelivery, type Locale, type Logger, type ProgressCard } from '@progresscard/core';
import type { AnyChannelPlugin } from '../channels/descriptor.js';
import { ReplayClock } from './clock.js';
import { delay } from './delay.js';
import type { LoadedTrace, TimedEvent } from './trace.js';

/** Options of {@link replayTrace}. */
export interface ReplayOptions {
  readonly trace: LoadedTrace;
  /** Channel plugins, already configured with the replay's tick (see `replayTickMs`). */
  readonly channels: readonly AnyChannelPlugin[];
  /** Card-time ms per wall ms. */
  readonly speed: number;
  /** Forces the card language (stamped on `run.started`). */
  readonly locale?: Locale;
  /** Where the core's delivery warnings go (default: dropped; the summary counts them). */
  readonly logger?: Logger;
  /** Aborting stops feeding events; running cards end as cancelled ("replay interrupted"). */
  readonly signal?: AbortSignal;
  /** Called after every event and whenever a card's final state was delivered. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  /** Longest wait for the final states after the last event, wall ms (default 60 000). */
  readonly finalTimeoutMs?: number;
}

/** Where a replay is. */
export interface ReplayProgress {
  readonly eventsDone: number;
  readonly eventsTotal: number;
  /** Trace time reached, ms since the first event. */
  readonly traceMs: number;
  readonly cards: readonly ReplayCardProgress[];
  /** The core's call counters per channel id so far (what `--real` can count). */
  readonly stats: Readonly<Record<string, ChannelStats>>;
}

/** Where one card (one run on one channel) of a replay is. */
export interface ReplayCardProgress {
  readonly channel: string;
  readonly run: number;
  readonly status: CardStatus;
  /** True once the card's final delivery settled (delivered or given up). */
  readonly settled: boolean;
  /**
   * Once settled: the platform requests the card made in all, its final included
   * (`FinalDelivery.calls`; absent on a card fenced by a lost lease).
   */
  readonly calls?: number;
}

/** How one card (one run on one channel) ended. */
export interface CardOutcome {
  readonly channel: string;
  readonly run: number;
  /** What the trace records for the run (undefined: the trace ended mid-run). */
  readonly expected: CardStatus | undefined;
  /** The card's final status. */
  readonly status: CardStatus;
  /** How the final state reached the platform; undefined when it did not within the timeout. */
  readonly final: FinalDelivery | undefined;
  /** The card as it ended. */
  readonly view: CardView;
}

/** The result of {@link replayTrace}. */
export interface ReplayResult {
  readonly cards: readonly CardOutcome[];
  /** Core call counters per channel id. */
  readonly stats: Readonly<Record<string, ChannelStats>>;
  /** Wall ms from the first event to the last final delivery. */
  readonly wallMs: number;
  readonly interrupted: boolean;
  readonly eventsPushed: number;
}

interface OpenRun {
  readonly run: number;
  readonly cards: Map<string, ProgressCard>;
}

/**
 * Replays a loaded trace into live cards on every channel at `speed`×.
 *
 * Card time is a {@link ReplayClock} starting at the trace's first event, injected into the core,
 * and every event keeps its (gap-capped) trace stamp, so durations on the cards are the trace's.
 * Each event is pushed when card time reaches its stamp; each run opens one card per channel.
 * A run the trace leaves open is cancelled when the next run starts or the trace ends.
 */
export async function replayTrace(options: ReplayOptions): Promise<ReplayResult> {
  const { trace, speed } = options;
  const clock = new ReplayClock(trace.startAt, speed);
  // `env: {}`: the replay sets each channel's tick itself; a `<CHANNEL>_CARD_TOOL_TICK_MS` in the
  // user's shell must not undo the speed scaling.
  const cards = createProgressCards({ channels: options.channels, clock, logger: options.logger ?? silentLogger, env: {} });
  const channelIds = options.channels.map((c) => c.id);
  const all: Array<{ run: number; channel: string; card: ProgressCard; final?: FinalDelivery }> = [];
  let current: OpenRun | undefined;
  let eventsDone = 0;
  let lastAt = trace.startAt;
  let interrupted = false;

  const progress = () =>
    options.onProgress?.({
      eventsDone,
      eventsTotal: trace.events.length,
      traceMs: Math.min(clock.now(), trace.endAt) - trace.startAt,
      cards: all.map(({ run, channel, card, final }) => ({ run, channel, status: card.status, settled: final !== undefined, ...(final?.calls !== undefined ? { calls: final.calls } : {}) })),
      stats: Object.fromEntries(channelIds.map((id) => [id, cards.stats(id)])),
    });

  const openRun = (run: number): OpenRun => {
    const opened: OpenRun = { run, cards: new Map() };
    for (const id of channelIds) {
      const card = cards.open(id, undefined, options.locale ? { locale: options.locale } : {});
      opened.cards.set(id, card);
      const entry: (typeof all)[number] = { run, channel: id, card };
      all.push(entry);
      void card.finalDelivery.then((final) => {
        entry.final = final;
        progress();
      });
    }
    return opened;
  };
  const closeRun = (open: OpenRun | undefined, reason: string) => {
    for (const card of open?.cards.values() ?? []) if (!isTerminalStatus(card.status)) card.cancel(reason);
  };

  const push = (item: TimedEvent) => {
    if (!current || current.run !== item.run) {
      closeRun(current, 'the trace moved on to its next run');
      current = openRun(item.run);
    }
    // The trace's own stamp (never going back), even when the timer fired a few ms early: durations
    // and the run time on the card are then exactly the trace's.
    lastAt = Math.max(lastAt, item.at);
    const event = item.event.type === 'run.started' && options.locale ? { ...item.event, locale: options.locale } : item.event;
    for (const card of current.cards.values()) card.push({ ...event, at: lastAt });
    eventsDone += 1;
  };

  clock.start();
  const wallStart = Date.now();
  try {
    for (const item of trace.events) {
      const wait = clock.wallDelayUntil(item.at);
      if (wait > 0) await delay(wait, { signal: options.signal });
      if (options.signal?.aborted) throw options.signal.reason;
      push(item);
      progress();
    }
    closeRun(current, 'the trace ended without a terminal event');
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    interrupted = true;
    for (const { card } of all) if (!isTerminalStatus(card.status)) card.cancel('replay interrupted');
  }

  const timeoutMs = options.finalTimeoutMs ?? 60_000;
  const timeout = delay(timeoutMs, { ref: false }).then(() => undefined);
  const finals = await Promise.all(all.map(({ card }) => Promise.race([card.finalDelivery, timeout])));
  const wallMs = Date.now() - wallStart;
  const stats = Object.fromEntries(channelIds.map((id) => [id, cards.stats(id)]));
  const outcomes: CardOutcome[] = all.map(({ run, channel, card }, i) => ({
    channel,
    run,
    expected: trace.expected.get(run),
    status: card.status,
    final: finals[i],
    view: card.view(),
  }));
  // Shutdown waits for every final; after the timeout above, do not wait on a platform that is down.
  const shutdownTimeout = delay(finals.every((f) => f !== undefined) ? timeoutMs : 2_000, { ref: false });
  await Promise.race([cards.shutdown(interrupted ? 'replay interrupted' : 'replay finished'), shutdownTimeout]);
  progress();
  return { cards: outcomes, stats, wallMs, interrupted, eventsPushed: eventsDone };
}
