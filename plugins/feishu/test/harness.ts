import { randomBytes } from 'node:crypto';
import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { startFeishuEmulator, type FeishuEmulator, type FeishuEmulatorOptions, type FeishuMessageSnapshot } from '@progresscard/emulator';
import { recordingLogger, wallTimeScript } from '@progresscard/core/testing';
import { feishu, type FeishuCard, type FeishuConfigInput, type FeishuPlugin } from '../src/index.js';
import type { FeishuElement } from '../src/render/payload.js';

/** Options of {@link harness}. */
export interface HarnessOptions {
  /**
   * Script time runs this many times faster than wall time (platform limits stay in wall time):
   * tick, debounce and retry delays shrink by the same factor, card durations keep script values.
   */
  readonly scale?: number;
  readonly plugin?: Partial<FeishuConfigInput>;
  readonly emulator?: FeishuEmulatorOptions;
}

/** A Feishu emulator, the plugin pointed at it over loopback, and a composition of the core. */
export interface Harness {
  readonly emulator: FeishuEmulator;
  readonly plugin: FeishuPlugin;
  readonly cards: ProgressCards;
  readonly logger: ReturnType<typeof recordingLogger>;
  readonly appSecret: string;
  /** Wall-clock epoch ms of script time 0. */
  readonly t0: number;
  /** Wall-clock ms for a script offset. */
  wall(atMs: number): number;
  /** Pushes scripted events (`at` = ms from the run start) at their scaled times. */
  play(card: ProgressCard, events: readonly Record<string, unknown>[]): Promise<void>;
  /** Waits until script offset `atMs`. */
  until(atMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator (own app id, so no SDK token is shared) and a composition over the Feishu plugin. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const scale = options.scale ?? 1;
  const appId = `cli_${randomBytes(8).toString('hex')}`;
  const appSecret = `secret-${randomBytes(12).toString('hex')}`;
  const emulator = await startFeishuEmulator({ apps: [{ appId, appSecret }], ...options.emulator });
  const plugin = feishu({
    appId,
    appSecret,
    domain: emulator.baseUrl,
    receiveId: 'oc_team',
    timeZone: 'UTC',
    tickMs: Math.round(3000 / scale),
    debounceMs: Math.round(2500 / scale),
    ...options.plugin,
  });
  const logger = recordingLogger();
  const script = wallTimeScript(scale);
  const { t0, wall } = script;
  const cards = createProgressCards({
    channels: [plugin],
    clock: script.clock,
    logger,
    env: {},
    retry: { finalRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale), updateRetryDelaysMs: [1000, 2000, 4000].map((d) => d / scale), probeDelaysMs: [5000, 10_000, 20_000, 30_000].map((d) => d / scale) },
  });
  return {
    emulator,
    plugin,
    cards,
    logger,
    appSecret,
    t0,
    wall,
    until: script.until,
    play: script.play,
    async close() {
      await cards.shutdown();
      await emulator.close();
    },
  };
}

/** Every element of a card, nested ones included. */
export function elementsOf(card: FeishuCard | Record<string, unknown> | undefined): FeishuElement[] {
  const out: FeishuElement[] = [];
  const walk = (els: readonly FeishuElement[]) =>
    els.forEach((e) => {
      out.push(e);
      if (Array.isArray(e.elements)) walk(e.elements as FeishuElement[]);
    });
  walk(((card as FeishuCard | undefined)?.body?.elements ?? []) as FeishuElement[]);
  return out;
}

/** Text of one element by id; for `answer`, the answer's components (`answer`, `answer_2`, …) joined. */
export function textOf(card: unknown, elementId: string): string | undefined {
  const elements = elementsOf(card as FeishuCard);
  if (elementId === 'answer') {
    const parts = elements.filter((e) => e.element_id === 'answer' || /^answer_\d+$/.test(e.element_id ?? '')).map((e) => e.content as string);
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }
  return elements.find((e) => e.element_id === elementId)?.content as string | undefined;
}

/** How far a card has got, comparable between two cards: [finished?, tools, tools done, answer length]. */
export function progressOf(card: unknown): number[] {
  const c = card as FeishuCard;
  const done = ['green', 'red', 'grey'].includes(c.header?.template ?? '') ? 1 : 0;
  const tools = Number(/· (\d+)$/.exec(textOf(c, 'tools_title') ?? '')?.[1] ?? 0);
  const lines = [textOf(c, 'tools_older'), textOf(c, 'tools')].join('\n');
  const finished = (lines.match(/✅/g) ?? []).length;
  return [done, tools, finished, (textOf(c, 'answer') ?? '').length];
}

/** True when `b` has got at least as far as `a` (lexicographic on {@link progressOf}). */
export function notOlder(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i]! > a[i]!;
  return true;
}

/** The cards a message accepted, in order (the send and every accepted patch). */
export function acceptedCards(message: FeishuMessageSnapshot): unknown[] {
  return message.history.filter((h) => h.outcome === 'accepted' && h.card !== undefined).map((h) => h.card);
}
