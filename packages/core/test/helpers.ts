import { vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type AgentEvent, type Logger, type MemoryChannel, type MemoryChannelOptions, type ProgressCards } from '../src/index.js';

/** A composition over one in-memory channel, on fake timers starting at `startMs`. */
export function setup(options: MemoryChannelOptions = {}, env: Record<string, string> = {}, logger: Logger = silentLogger) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const channel: MemoryChannel = memoryChannel(options);
  const cards: ProgressCards = createProgressCards({ channels: [channel], logger, env });
  return { channel, cards, t0: Date.now() };
}

/** Feeds scripted events at their `at` offsets (ms from t0), advancing fake time between them. */
export async function play(card: { push(e: unknown): unknown }, events: readonly (AgentEvent & { at?: number })[], t0: number): Promise<void> {
  for (const event of events) {
    const at = t0 + (event.at ?? 0);
    const wait = at - Date.now();
    if (wait > 0) await vi.advanceTimersByTimeAsync(wait);
    card.push({ ...event, at });
  }
}

/** Lets queued timers and promises run for `ms` of fake time. */
export async function settle(ms = 20_000): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}
