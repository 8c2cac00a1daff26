import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../shared/clock.js';
import type { EventSink } from './play-events.js';

/** Resolves at wall-clock epoch ms `epochMs` (at once when it has passed). */
export function sleepUntil(epochMs: number): Promise<void> {
  return sleep(Math.max(0, epochMs - Date.now()));
}

/**
 * A script played on wall time, for tests over real loopback HTTP (a platform emulator on
 * 127.0.0.1, which keeps wall time): script time runs `scale` times faster than wall time from
 * `t0`, so a test scales the platform's windows and the channel's intervals down by `scale` and
 * gives the composition {@link clock} (the whole world runs faster). For fake time, use
 * {@link playEvents} instead.
 */
export interface WallTimeScript {
  /** Wall-clock epoch ms of script time 0. */
  readonly t0: number;
  /** Script ms per wall ms. */
  readonly scale: number;
  /** The card clock of a composition on script time: `t0 + (wall − t0) × scale`. */
  readonly clock: Clock;
  /** Wall-clock epoch ms of script offset `atMs`. */
  wall(atMs: number): number;
  /** Waits until script offset `atMs` (ms from script time 0). */
  until(atMs: number): Promise<void>;
  /** Pushes each event at its script offset (`at`, ms from the run start), stamped `at: t0 + at`. */
  play(card: EventSink, events: readonly Readonly<Record<string, unknown>>[]): Promise<void>;
}

/** A {@link WallTimeScript} starting now; `scale` defaults to 1 (script time is wall time). */
export function wallTimeScript(scale = 1): WallTimeScript {
  const t0 = Date.now();
  const wall = (atMs: number): number => t0 + atMs / scale;
  return {
    t0,
    scale,
    clock: { now: () => t0 + (Date.now() - t0) * scale },
    wall,
    until: (atMs) => sleepUntil(wall(atMs)),
    async play(card, events) {
      for (const event of events) {
        const at = Number(event.at ?? 0);
        await sleepUntil(wall(at));
        card.push({ ...event, at: t0 + at });
      }
    },
  };
}
