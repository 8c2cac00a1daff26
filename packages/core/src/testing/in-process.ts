import { createProgressCards } from '../compose.js';
import type { ChannelPlugin } from '../plugin/contract.js';
import type { ProgressCard } from '../runtime/progress-card.js';
import type { ProgressCards } from '../runtime/progress-cards.js';
import { fakeTime, type FakeTime, type FakeTimers } from './fake-time.js';
import { recordingLogger, type RecordingLogger } from './recording-logger.js';

/** The part of vitest's `vi` {@link inProcessChannel} uses: fake timers and a stubbed global `fetch`. */
export interface InProcessTimers extends FakeTimers {
  useFakeTimers(options: { now: number }): unknown;
  useRealTimers(): unknown;
  stubGlobal(name: string, value: unknown): unknown;
  unstubAllGlobals(): unknown;
}

/** What answers the plugin's requests in process: an emulator's app (a Hono app has this `fetch`). */
export interface InProcessApp {
  fetch(request: Request): Response | Promise<Response>;
}

/** Options of {@link inProcessChannel}. */
export interface InProcessChannelOptions<E extends { readonly app: InProcessApp }> {
  /** The base URL the plugin is given (e.g. `http://telegram.test`): requests to it go to the emulator's app. */
  readonly apiRoot: string;
  /** Makes the emulator, once time is faked (give it `clock: () => Date.now()`, so its clock is the faked one). */
  emulator(): E;
  /** Makes the plugin, pointed at `apiRoot`. */
  plugin(): ChannelPlugin;
  /** Epoch ms the faked clock starts at (default 1 800 000 000 000). */
  readonly startAt?: number;
}

/** An emulator answering in process on fake time, a plugin pointed at it, and a composition of the core. */
export interface InProcessChannel<E> {
  readonly emulator: E;
  readonly cards: ProgressCards;
  readonly logger: RecordingLogger;
  readonly time: FakeTime;
  /** Pushes a script's events at their `at` (ms from the start), advancing the fake clock between them. */
  play(card: ProgressCard, events: readonly Record<string, unknown>[]): Promise<void>;
  /** Advances the fake clock a second at a time (at most `maxMs`, default 120 000) until `promise` settles; its value. */
  settle<T>(promise: Promise<T>, maxMs?: number): Promise<T>;
  /** Shuts the composition down (advancing time while it drains, at most 120 s) and restores real timers and `fetch`. */
  close(): Promise<void>;
}

/**
 * Fake timers, an emulator's app answering the plugin's `fetch` calls in process (no sockets), on
 * the faked clock, and a composition of the core over the plugin: minutes of a run take no wall
 * time, and pacing is checked to the millisecond instead of against a loaded machine's jitter.
 * A plugin's own request timeouts (`AbortSignal.timeout`) do not fire here: test those over
 * loopback HTTP.
 */
export function inProcessChannel<E extends { readonly app: InProcessApp }>(timers: InProcessTimers, options: InProcessChannelOptions<E>): InProcessChannel<E> {
  timers.useFakeTimers({ now: options.startAt ?? 1_800_000_000_000 });
  const time = fakeTime(timers);
  const emulator = options.emulator();
  timers.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => emulator.app.fetch(new Request(String(input).replace(options.apiRoot, 'http://127.0.0.1'), init)));
  const logger = recordingLogger();
  const cards = createProgressCards({ channels: [options.plugin()], logger, env: {} });
  const t0 = Date.now();
  return {
    emulator,
    cards,
    logger,
    time,
    async play(card, events) {
      for (const event of events) {
        const at = t0 + Number(event.at ?? 0);
        await time.advance(at - Date.now());
        card.push({ ...event, at });
      }
    },
    async settle(promise, maxMs = 120_000) {
      let settled = false;
      const watched = promise.finally(() => (settled = true));
      for (let waited = 0; !settled && waited < maxMs; waited += 1000) await time.advance(1000);
      return watched;
    },
    async close() {
      let closed = false;
      const closing = cards.shutdown().finally(() => (closed = true));
      for (let i = 0; i < 120 && !closed; i++) await time.advance(1_000);
      await closing;
      timers.unstubAllGlobals();
      timers.useRealTimers();
    },
  };
}
