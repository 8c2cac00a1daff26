import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { recordingLogger, wallTimeScript } from '@progresscard/core/testing';
import { DEFAULT_TELEGRAM_BOT, DEFAULT_TELEGRAM_LIMITS, startTelegramEmulator, type TelegramEmulator, type TelegramEmulatorOptions, type TelegramMessageSnapshot } from '@progresscard/emulator';
import { TELEGRAM_DEFAULTS, telegram, type TelegramConfigInput, type TelegramPlugin } from '../src/index.js';

/** Options of {@link harness}. */
export interface HarnessOptions {
  /** Script time runs this many times faster than wall time; the emulator's windows shrink with it. */
  readonly scale?: number;
  /** Default: the emulator's forum supergroup, topic 42. */
  readonly plugin?: Partial<TelegramConfigInput>;
  readonly emulator?: TelegramEmulatorOptions;
  /** Retry settings of the core beside the harness's scaled delays (script time, like every core setting). */
  readonly retry?: CoreOptions['retry'];
}

type CoreOptions = Parameters<typeof createProgressCards>[0];

/** A Telegram emulator, the plugin pointed at it over loopback, and a composition of the core. */
export interface Harness {
  readonly emulator: TelegramEmulator;
  readonly plugin: TelegramPlugin;
  readonly cards: ProgressCards;
  readonly logger: ReturnType<typeof recordingLogger>;
  readonly t0: number;
  play(card: ProgressCard, events: readonly Record<string, unknown>[]): Promise<void>;
  until(atMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator and a composition over the Telegram plugin. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const scale = options.scale ?? 1;
  const scaled = (windows: readonly { limit: number; intervalMs: number }[]) => windows.map((w) => ({ limit: w.limit, intervalMs: Math.max(1, Math.round(w.intervalMs / scale)) }));
  const emulator = await startTelegramEmulator({
    limits: {
      perChatWindows: scaled(DEFAULT_TELEGRAM_LIMITS.perChatWindows),
      perGroupWindows: scaled(DEFAULT_TELEGRAM_LIMITS.perGroupWindows),
      perBotWindows: scaled(DEFAULT_TELEGRAM_LIMITS.perBotWindows),
      draftWindows: scaled(DEFAULT_TELEGRAM_LIMITS.draftWindows),
    },
    ...options.emulator,
  });
  const plugin = telegram({
    botToken: DEFAULT_TELEGRAM_BOT.botToken,
    chatId: DEFAULT_TELEGRAM_BOT.groupChat,
    threadId: DEFAULT_TELEGRAM_BOT.topic,
    apiRoot: emulator.apiRoot,
    tickMs: Math.round(3000 / scale),
    debounceMs: Math.round(1500 / scale),
    locale: 'en',
    budget: scaled(TELEGRAM_DEFAULTS.budget),
    perCardIntervalMs: Math.round(TELEGRAM_DEFAULTS.perCardIntervalMs / scale),
    chatBudget: scaled(DEFAULT_TELEGRAM_LIMITS.perChatWindows),
    groupBudget: scaled(DEFAULT_TELEGRAM_LIMITS.perGroupWindows),
    ...options.plugin,
  });
  // Warm the process's HTTP client first: the very first fetch of a process takes a few hundred ms
  // to arrive, which the core cannot know when it paces the first two calls of a chat one second apart.
  await fetch(`${emulator.apiRoot}/bot${DEFAULT_TELEGRAM_BOT.botToken}/getMe`).then((r) => r.arrayBuffer());
  const logger = recordingLogger();
  const script = wallTimeScript(scale);
  const cards = createProgressCards({
    channels: [plugin],
    clock: script.clock,
    logger,
    env: {},
    retry: { finalRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale), updateRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale), ...options.retry },
  });
  return {
    emulator,
    plugin,
    cards,
    logger,
    t0: script.t0,
    until: script.until,
    play: script.play,
    async close() {
      await cards.shutdown();
      await emulator.close();
    },
  };
}

/** The first line of a card (status emoji, status word, title). */
export const statusLine = (m: TelegramMessageSnapshot | undefined) => m?.text.split('\n')[0] ?? '';

/** The texts a message accepted, in order (its send and every accepted edit), as sent (HTML). */
export function acceptedTexts(message: TelegramMessageSnapshot): string[] {
  return message.history.filter((h) => h.outcome === 'accepted' && h.card !== undefined).map((h) => (h.card as { text: string }).text);
}

/** Waits until `read` gives a value. */
export async function waitFor<T>(read: () => T | undefined | false, what: string, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
