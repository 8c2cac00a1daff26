import type { FakeTime } from './fake-time.js';

/** An event of a script: any agent event, its `at` in ms from the start of the run (default 0). */
export type ScriptedEvent = Readonly<Record<string, unknown>> & { readonly type: string; readonly at?: number };

/** Anything events can be pushed into: a `ProgressCard` (`R` = `PushResult`), or a test double. */
export interface EventSink<R = unknown> {
  push(event: unknown): R;
}

/** Options of {@link playEvents}. */
export interface PlayEventsOptions {
  /** Epoch ms of script time 0 (default: `time.now()` when called). */
  readonly startAt?: number;
}

/**
 * Plays a script into `card` on fake time: before each event, advances `time` to the event's
 * `startAt + at` (never backwards: an event stamped earlier than now goes out now), then pushes
 * the event with that absolute `at`. Resolves with what each push returned, in order; timers due
 * after the last event are left for the caller to run (e.g. `time.advance(30_000)`).
 * @throws RangeError naming the event when its `at` is not a finite number ≥ 0.
 */
export async function playEvents<R>(card: EventSink<R>, events: readonly ScriptedEvent[], time: FakeTime, options: PlayEventsOptions = {}): Promise<R[]> {
  const startAt = options.startAt ?? time.now();
  const results: R[] = [];
  for (const [index, event] of events.entries()) {
    const offset = event.at ?? 0;
    if (typeof offset !== 'number' || !Number.isFinite(offset) || offset < 0) {
      throw new RangeError(`event #${index + 1} (${event.type}): at must be a number of ms ≥ 0 from the run start, got ${JSON.stringify(offset)}`);
    }
    const at = startAt + offset;
    await time.advance(at - time.now());
    results.push(card.push({ ...event, at }));
  }
  return results;
}
