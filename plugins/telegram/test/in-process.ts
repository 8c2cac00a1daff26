import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { fakeTime, recordingLogger, type FakeTime } from '@progresscard/core/testing';
import { DEFAULT_TELEGRAM_BOT as BOT, createTelegramEmulator, type TelegramEmulatorCore, type TelegramEmulatorOptions } from '@progresscard/emulator';
import { vi } from 'vitest';
import { telegram, type TelegramConfigInput } from '../src/index.js';

const API_ROOT = 'http://telegram.test';

/** A Telegram emulator answering in process on fake time, the plugin pointed at it, and a composition of the core. */
export interface InProcess {
  readonly emulator: TelegramEmulatorCore;
  readonly cards: ProgressCards;
  readonly logger: ReturnType<typeof recordingLogger>;
  readonly time: FakeTime;
  /** Pushes a script's events at their `at` (ms from now), advancing the fake clock between them. */
  play(card: ProgressCard, events: readonly Record<string, unknown>[]): Promise<void>;
  /** Advances the fake clock a second at a time (at most `maxMs`) until `promise` settles; its value. */
  settle<T>(promise: Promise<T>, maxMs?: number): Promise<T>;
  /** Shuts the composition down (advancing time while it drains) and restores real timers and fetch. */
  close(): Promise<void>;
}

/**
 * Fake timers, and the emulator's Hono app answering the plugin's `fetch` calls in process (no
 * sockets), on the faked clock: minutes of a run take no wall time, and pacing is checked to the
 * millisecond instead of against a loaded machine's jitter. Default: the bot's private chat.
 */
export function inProcess(options: { plugin?: Partial<TelegramConfigInput>; emulator?: TelegramEmulatorOptions } = {}): InProcess {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
  const time = fakeTime(vi);
  const emulator = createTelegramEmulator({ clock: () => Date.now(), ...options.emulator });
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => emulator.app.fetch(new Request(String(input).replace(API_ROOT, 'http://127.0.0.1'), init)));
  const plugin = telegram({ botToken: BOT.botToken, chatId: BOT.privateChat, apiRoot: API_ROOT, locale: 'en', ...options.plugin }, { env: {} });
  const logger = recordingLogger();
  const cards = createProgressCards({ channels: [plugin], logger, env: {} });
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
      vi.unstubAllGlobals();
      vi.useRealTimers();
    },
  };
}
