import { CardState, parseEvent, type CardView, type Locale } from '../index.js';
import type { ScriptedEvent } from './play-events.js';

/** Options of {@link viewAfterEvents}. */
export interface ViewAfterEventsOptions {
  /** Epoch ms of script time 0 (default 2026-01-01T08:00:00Z, so footers are deterministic). */
  readonly startAt?: number;
  /** When the card is looked at, in ms from `startAt` (default: the last event's `at`). */
  readonly lookAtMs?: number;
  /** Card language (default `zh-CN`). */
  readonly locale?: Locale;
  /**
   * Release buffered text after every event, as a card does once its debounce has passed between
   * events (default false: released once, after the last event).
   */
  readonly releaseTextAfterEach?: boolean;
}

/** Script time 0 of {@link viewAfterEvents} unless given: 2026-01-01T08:00:00Z. */
export const DEFAULT_SCRIPT_START = Date.UTC(2026, 0, 1, 8, 0, 0);

/**
 * The card view after a script, without timers or a channel: each event is parsed like
 * `card.push` does and applied to the card state at its `startAt + at`; buffered text is released
 * (as the flush before a render does) and the view is taken at `startAt + lookAtMs`.
 * @throws EventParseError naming the field of an event that is not a valid agent event.
 */
export function viewAfterEvents(events: readonly ScriptedEvent[], options: ViewAfterEventsOptions = {}): CardView {
  const startAt = options.startAt ?? DEFAULT_SCRIPT_START;
  const state = new CardState({ startedAt: startAt, locale: options.locale ?? 'zh-CN' });
  let lastAt = startAt;
  for (const event of events) {
    const at = startAt + (event.at ?? 0);
    lastAt = Math.max(lastAt, at);
    state.apply(parseEvent({ ...event, at }), at);
    if (options.releaseTextAfterEach) state.releaseText();
  }
  state.releaseText();
  return state.view(options.lookAtMs === undefined ? lastAt : startAt + options.lookAtMs);
}
