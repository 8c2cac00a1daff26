import type { Logger } from '../shared/logger.js';

/** Something the ticker refreshes: a card with running tools. */
export interface Tickable {
  /** Called on every tick of the card's interval; errors are logged, never stop the ticker. */
  onTick(): void;
}

interface IntervalGroup {
  readonly timer: NodeJS.Timeout;
  readonly members: Set<Tickable>;
}

/**
 * What re-renders cards whose tools are running (`TOKENS.Ticker`): the composition watches a card
 * while a tool runs and unwatches it when none does, and disposes the ticker at shutdown. A
 * product may register its own (e.g. one driven by its scheduler); it must call `onTick` of each
 * watched card about every `intervalMs` ms and catch what `onTick` throws.
 */
export interface Ticker {
  /** Starts ticking `card` every `intervalMs` ms (no-op when it already ticks at that interval). */
  watch(card: Tickable, intervalMs: number): void;
  /** Stops ticking `card` at `intervalMs` (no-op when it is not watched). */
  unwatch(card: Tickable, intervalMs: number): void;
  /** Cards ticking now, for `diagnostics().tickingCards`. */
  readonly watchedCount: number;
  /** Live tick timers, for `diagnostics().tickTimers`. */
  readonly timerCount: number;
  /** Stops every timer (shutdown). */
  dispose(): void;
}

/**
 * The default {@link Ticker}: re-renders cards whose tools are running, once per tick. One `setInterval` per distinct tick
 * interval (not per card), created when the first card of that interval is watched and cleared
 * when the last one leaves; timers are `unref()`ed so they never keep a process alive.
 */
export class TickerService implements Ticker {
  private readonly groups = new Map<number, IntervalGroup>();

  constructor(private readonly logger: Logger) {}

  /** Starts ticking `card` every `intervalMs` ms (no-op when it already ticks at that interval). */
  watch(card: Tickable, intervalMs: number): void {
    let group = this.groups.get(intervalMs);
    if (!group) {
      const members = new Set<Tickable>();
      const timer = setInterval(() => this.tick(members), intervalMs);
      timer.unref();
      group = { timer, members };
      this.groups.set(intervalMs, group);
    }
    group.members.add(card);
  }

  /** Stops ticking `card` (no-op when it is not watched). */
  unwatch(card: Tickable, intervalMs: number): void {
    const group = this.groups.get(intervalMs);
    if (!group?.members.delete(card)) return;
    if (group.members.size === 0) {
      clearInterval(group.timer);
      this.groups.delete(intervalMs);
    }
  }

  /** True when `card` is ticking. */
  isWatching(card: Tickable): boolean {
    for (const group of this.groups.values()) if (group.members.has(card)) return true;
    return false;
  }

  /** Cards ticking now, over all intervals. */
  get watchedCount(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group.members.size;
    return count;
  }

  /** Live interval timers (one per distinct tick interval in use). */
  get timerCount(): number {
    return this.groups.size;
  }

  /** Stops every timer. */
  dispose(): void {
    for (const group of this.groups.values()) clearInterval(group.timer);
    this.groups.clear();
  }

  private tick(members: Set<Tickable>): void {
    for (const card of [...members]) {
      try {
        card.onTick();
      } catch (error) {
        this.logger.error('tick failed; the card keeps ticking', { error: String(error) });
      }
    }
  }
}
