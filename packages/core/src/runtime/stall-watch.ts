import { checkTimerMs } from '../shared/timer-duration.js';
import { formatDuration } from '../card/format/duration.js';
import type { Locale } from '../card/view.js';

/**
 * When a run nobody feeds counts as stalled, and when it is given up. Durations in ms, each at most
 * `MAX_TIMER_MS` (2 147 483 647, about 24.8 days: setTimeout's limit); there is no "never", set that
 * limit for a run that may sit idle for weeks.
 */
export interface StallSettings {
  /** No event for this long: the card shows "no progress since …" and stops ticking (default 600 000, 10 min). */
  readonly stallMs: number;
  /** No event for this long: the card ends as failed with {@link abandonedReason} (default 1 800 000, 30 min). */
  readonly abandonMs: number;
}

/** The defaults of {@link StallSettings}. */
export const DEFAULT_STALL_SETTINGS: StallSettings = { stallMs: 600_000, abandonMs: 1_800_000 };

/**
 * Checks stall settings.
 * @throws Error naming the field and value when one is not an integer from 1 to 2 147 483 647 ms
 *   (setTimeout's limit, about 24.8 days), or `abandonMs` is below `stallMs`.
 */
export function checkStallSettings(settings: StallSettings): StallSettings {
  for (const field of ['stallMs', 'abandonMs'] as const) {
    checkTimerMs(`stall.${field}`, settings[field], 1);
  }
  if (settings.abandonMs < settings.stallMs) {
    throw new Error(`stall.abandonMs (${settings.abandonMs}) must be at least stall.stallMs (${settings.stallMs})`);
  }
  return settings;
}

/** The error a card abandoned after `abandonMs` without an event ends with, in its locale. */
export function abandonedReason(abandonMs: number, locale: Locale): string {
  const duration = formatDuration(abandonMs, locale);
  return locale === 'en' ? `no progress for ${duration}: the run was given up` : `${duration}无进展，任务已放弃`;
}

/**
 * The stall timers of one card: restarted by every event, they call `onStall` after `stallMs` and
 * `onAbandon` after `abandonMs` without one. Timers are `unref()`ed: a stalled card never keeps
 * the process alive.
 */
export class StallWatch {
  private stallTimer: NodeJS.Timeout | undefined;
  private abandonTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: StallSettings,
    private readonly onStall: () => void,
    private readonly onAbandon: () => void,
  ) {}

  /** An event arrived: the clocks start again. */
  touch(): void {
    this.stop();
    this.stallTimer = setTimeout(() => this.onStall(), this.settings.stallMs);
    this.abandonTimer = setTimeout(() => this.onAbandon(), this.settings.abandonMs);
    this.stallTimer.unref();
    this.abandonTimer.unref();
  }

  /** The card ended: no more timers. */
  stop(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    if (this.abandonTimer) clearTimeout(this.abandonTimer);
    this.stallTimer = undefined;
    this.abandonTimer = undefined;
  }
}
