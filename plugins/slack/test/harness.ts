import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { recordingLogger, wallTimeScript } from '@progresscard/core/testing';
import { DEFAULT_SLACK_LIMITS, DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type SlackEmulator, type SlackEmulatorOptions, type SlackMessageSnapshot } from '@progresscard/emulator';
import { SLACK_DEFAULTS, slack, type SlackConfigInput, type SlackPlugin } from '../src/index.js';

/** Options of {@link harness}. */
export interface HarnessOptions {
  /**
   * Script time runs this many times faster than wall time. Slack's limits are per minute, so the
   * emulator's windows and the plugin's budget shrink by the same factor (the whole world runs faster).
   */
  readonly scale?: number;
  readonly plugin?: Partial<SlackConfigInput>;
  readonly emulator?: SlackEmulatorOptions;
}

/** A Slack emulator, the plugin pointed at it over loopback, and a composition of the core. */
export interface Harness {
  readonly emulator: SlackEmulator;
  readonly plugin: SlackPlugin;
  readonly cards: ProgressCards;
  readonly logger: ReturnType<typeof recordingLogger>;
  /** Wall-clock epoch ms of script time 0. */
  readonly t0: number;
  play(card: ProgressCard, events: readonly Record<string, unknown>[]): Promise<void>;
  until(atMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator and a composition over the Slack plugin. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const scale = options.scale ?? 1;
  const scaled = (windows: readonly { limit: number; intervalMs: number }[]) => windows.map((w) => ({ limit: w.limit, intervalMs: Math.round(w.intervalMs / scale) }));
  const emulator = await startSlackEmulator({
    limits: {
      postMessageWindows: scaled(DEFAULT_SLACK_LIMITS.postMessageWindows),
      updateWindows: scaled(DEFAULT_SLACK_LIMITS.updateWindows),
      streamStartStopWindows: scaled(DEFAULT_SLACK_LIMITS.streamStartStopWindows),
      appendStreamWindows: scaled(DEFAULT_SLACK_LIMITS.appendStreamWindows),
      // The emulator runs on wall time, the core on script time: the stream's life shrinks with the world.
      streamLifetimeMs: Math.round(DEFAULT_SLACK_LIMITS.streamLifetimeMs / scale),
      statusTimeoutMs: Math.round(DEFAULT_SLACK_LIMITS.statusTimeoutMs / scale),
    },
    ...options.emulator,
  });
  const plugin = slack({
    botToken: DEFAULT_SLACK_WORKSPACE.botToken,
    channel: DEFAULT_SLACK_WORKSPACE.channel,
    apiUrl: emulator.apiUrl,
    tickMs: Math.round(3000 / scale),
    debounceMs: Math.round(2500 / scale),
    locale: 'en',
    budget: scaled(SLACK_DEFAULTS.budget),
    perCardIntervalMs: Math.round(SLACK_DEFAULTS.perCardIntervalMs / scale),
    // Delivery runs on wall time: the stream's life the plugin declares shrinks like the emulator's.
    streaming: { lifetimeMs: Math.max(1000, Math.round(DEFAULT_SLACK_LIMITS.streamLifetimeMs / scale)) },
    ...options.plugin,
  });
  const logger = recordingLogger();
  const script = wallTimeScript(scale);
  const { t0 } = script;
  const cards = createProgressCards({
    channels: [plugin],
    clock: script.clock,
    logger,
    env: {},
    retry: { finalRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale), updateRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale) },
  });
  return {
    emulator,
    plugin,
    cards,
    logger,
    t0,
    until: script.until,
    play: script.play,
    async close() {
      await cards.shutdown();
      await emulator.close();
    },
  };
}

interface Block {
  type: string;
  block_id?: string;
  text?: { text: string };
  elements?: { text: string }[];
}

/** Text of the blocks whose block_id starts with `prefix` (sections and contexts), joined by newlines. */
export function blockText(blocks: unknown, prefix: string): string | undefined {
  const found = ((blocks ?? []) as Block[]).filter((b) => b.block_id?.startsWith(prefix));
  if (found.length === 0) return undefined;
  return found.map((b) => b.text?.text ?? b.elements?.map((e) => e.text).join(' ') ?? '').join('\n');
}

/** The status word of a card (`Completed`, `已完成`, …) from its status context. */
export function statusOf(blocks: unknown): string {
  return /\*(.+?)\*/.exec(blockText(blocks, 'status') ?? '')?.[1] ?? '';
}

/** The blocks a message accepted, in order (its post and every accepted update). */
export function acceptedCards(message: SlackMessageSnapshot): unknown[] {
  return message.history.filter((h) => h.outcome === 'accepted' && h.card !== undefined).map((h) => h.card);
}
