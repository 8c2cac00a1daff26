import { vi } from 'vitest';
import { fakeTime, playEvents, type ScriptedEvent } from '../src/testing/index.js';
import { createProgressCards, memoryChannel, silentLogger, type AgentEvent, type Logger, type MemoryChannel, type MemoryChannelOptions, type ProgressCards } from '../src/index.js';

/** A composition over one in-memory channel, on fake timers starting at `startMs`. */
export function setup(options: MemoryChannelOptions = {}, env: Record<string, string> = {}, logger: Logger = silentLogger) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel: MemoryChannel = memoryChannel(options);
  const cards: ProgressCards = createProgressCards({ channels: [channel], logger, env });
  return { channel, cards, t0: Date.now() };
}

/** Feeds scripted events at their `at` offsets (ms from t0), advancing fake time between them (the testing kit's `playEvents`). */
export async function play(card: { push(e: unknown): unknown }, events: readonly (AgentEvent | ScriptedEvent)[], t0: number): Promise<void> {
  await playEvents(card, events as readonly ScriptedEvent[], fakeTime(vi), { startAt: t0 });
}

/** Lets queued timers and promises run for `ms` of fake time. */
export async function settle(ms = 20_000): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}
