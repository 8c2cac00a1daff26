import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { recordingLogger, sleepUntil } from '@progresscard/core/testing';
import { DEFAULT_DISCORD_APP, startDiscordEmulator, type DiscordEmulator, type DiscordEmulatorOptions, type DiscordMessageSnapshot } from '@progresscard/emulator';
import { discord, type DiscordConfigInput, type DiscordPlugin } from '../src/index.js';

/** Options of {@link harness}. */
export interface HarnessOptions {
  readonly plugin?: Partial<DiscordConfigInput>;
  readonly emulator?: DiscordEmulatorOptions;
  /** Turn the buttons on, verified with the emulator's own public key (its key pair is made per emulator). */
  readonly interactive?: boolean;
  /** Retry settings of the core beside the harness's shorter retry delays. */
  readonly retry?: Parameters<typeof createProgressCards>[0]['retry'];
}

/**
 * A Discord emulator, the plugin pointed at it over loopback, and a composition of the core, in
 * real time: the limits the plugin learns are the ones the emulator announces in wall-clock
 * seconds, so the clock cannot be sped up as in the other plugins' harnesses.
 */
export interface Harness {
  readonly emulator: DiscordEmulator;
  readonly plugin: DiscordPlugin;
  readonly cards: ProgressCards;
  readonly logger: ReturnType<typeof recordingLogger>;
  readonly t0: number;
  /** Plays a script; `speed` > 1 plays it that many times faster (its `at` times divided), the clock staying real. */
  play(card: ProgressCard, events: readonly Record<string, unknown>[], speed?: number): Promise<void>;
  until(atMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator and a composition over the Discord plugin. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const emulator = await startDiscordEmulator(options.emulator);
  // Warm the process's HTTP client: the first fetch of a process is slow to arrive.
  await fetch(`${emulator.apiUrl}/users/@me`, { headers: { authorization: `Bot ${DEFAULT_DISCORD_APP.botToken}` } }).then((r) => r.arrayBuffer());
  const plugin = discord({
    botToken: DEFAULT_DISCORD_APP.botToken,
    channelId: DEFAULT_DISCORD_APP.channel,
    apiUrl: emulator.apiUrl,
    locale: 'en',
    ...(options.interactive ? { interactions: { publicKey: emulator.publicKey, port: 0 } } : {}),
    ...options.plugin,
  });
  const logger = recordingLogger();
  const t0 = Date.now();
  const cards = createProgressCards({ channels: [plugin], logger, env: {}, retry: { finalRetryDelaysMs: [500, 1000, 2000], updateRetryDelaysMs: [500, 1000, 2000], ...options.retry } });
  return {
    emulator,
    plugin,
    cards,
    logger,
    t0,
    until: (atMs) => sleepUntil(t0 + atMs),
    async play(card, events, speed = 1) {
      for (const event of events) {
        const at = Math.round(Number(event.at ?? 0) / speed);
        await sleepUntil(t0 + at);
        card.push({ ...event, at: t0 + at });
      }
    },
    async close() {
      await cards.shutdown();
      await emulator.close();
    },
  };
}

interface Embed {
  title?: string;
  description?: string;
  footer?: { text?: string };
}

/** The card's embed of a message. */
export const embedOf = (m: DiscordMessageSnapshot | undefined): Embed => ((m?.embeds ?? [])[0] ?? {}) as Embed;

/** The bodies a message accepted, in order (its create and every accepted edit). */
export function acceptedBodies(message: DiscordMessageSnapshot): { embeds: Embed[] }[] {
  return message.history.filter((h) => h.outcome === 'accepted' && h.card !== undefined).map((h) => h.card as { embeds: Embed[] });
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
