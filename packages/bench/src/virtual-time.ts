/**
 * Simulated time for the bench: replaces `setTimeout`, `setInterval`, their `clear…`, `Date.now`
 * and `performance.now` with a timer heap on a virtual clock, so minutes of platform traffic run in
 * seconds and the same seed gives the same result. Promise callbacks run between timers (one real
 * `setImmediate` each). `performance.now` moves too because the core's card clock counts a running
 * tool's time with it (monotonic against wall-clock steps): on real `performance.now` a simulated
 * 20 s tool showed under a second, its card's tick refreshes rendered unchanged and made no call, and
 * the simulated figures left out about two thirds of the ticks a real run pays for (DingTalk N = 50:
 * 97 tick-only updates simulated against 306 in real time).
 */
interface Timer {
  readonly id: number;
  at: number;
  readonly fn: () => void;
  readonly every: number | undefined;
}

/** The handle `setTimeout` returns under virtual time (enough of Node's `Timeout` for the core). */
class VirtualTimeout {
  constructor(readonly id: number) {}
  ref(): this { return this; }
  unref(): this { return this; }
  hasRef(): boolean { return true; }
  [Symbol.toPrimitive](): number { return this.id; }
}

export class VirtualTime {
  private heap: Timer[] = [];
  private readonly cancelled = new Set<number>();
  private nextId = 1;
  private restore: (() => void) | undefined;

  constructor(public now: number) {}

  /** Installs the virtual timers and clock globally; `uninstall()` puts the real ones back. */
  install(): void {
    const saved = { setTimeout, clearTimeout, setInterval, clearInterval, now: Date.now, performanceNow: Object.getOwnPropertyDescriptor(performance, 'now') };
    // Monotonic ms from here on, moving with the virtual clock only.
    const performanceAtInstall = performance.now();
    const virtualAtInstall = this.now;
    const schedule = (fn: () => void, ms: number | undefined, every: boolean) => {
      const id = this.nextId++;
      const delay = Math.max(0, Number(ms) || 0);
      this.push({ id, at: this.now + delay, fn, every: every ? Math.max(1, delay) : undefined });
      return new VirtualTimeout(id);
    };
    const clear = (handle: unknown) => {
      if (handle instanceof VirtualTimeout) this.cancelled.add(handle.id);
    };
    globalThis.setTimeout = ((fn: () => void, ms?: number) => schedule(fn, ms, false)) as unknown as typeof setTimeout;
    globalThis.setInterval = ((fn: () => void, ms?: number) => schedule(fn, ms, true)) as unknown as typeof setInterval;
    globalThis.clearTimeout = clear as typeof clearTimeout;
    globalThis.clearInterval = clear as typeof clearInterval;
    Date.now = () => this.now;
    Object.defineProperty(performance, 'now', { configurable: true, writable: true, value: () => performanceAtInstall + (this.now - virtualAtInstall) });
    this.restore = () => {
      globalThis.setTimeout = saved.setTimeout;
      globalThis.clearTimeout = saved.clearTimeout;
      globalThis.setInterval = saved.setInterval;
      globalThis.clearInterval = saved.clearInterval;
      Date.now = saved.now;
      // An own property only when one was there before (Node's lives on the prototype).
      if (saved.performanceNow) Object.defineProperty(performance, 'now', saved.performanceNow);
      else delete (performance as { now?: unknown }).now;
    };
  }

  uninstall(): void {
    this.restore?.();
    this.restore = undefined;
  }

  /**
   * Runs timers in time order until `done()` holds after a step, or time passes `untilMs`; returns
   * whether `done()` held. `realImmediate` lets promise callbacks run between timers.
   */
  async run(done: () => boolean, untilMs: number, realImmediate: (fn: () => void) => void): Promise<boolean> {
    const settle = () => new Promise<void>((resolve) => realImmediate(resolve));
    await settle();
    while (!done()) {
      const timer = this.pop();
      if (!timer || timer.at > untilMs) return false;
      this.now = Math.max(this.now, timer.at);
      if (timer.every !== undefined) this.push({ ...timer, at: timer.at + timer.every });
      timer.fn();
      // Timers due at the same moment run before the promise callbacks settle.
      while (this.heap.length > 0 && this.heap[0]!.at <= this.now) {
        const next = this.pop();
        if (!next) break;
        if (next.every !== undefined) this.push({ ...next, at: next.at + next.every });
        next.fn();
      }
      await settle();
    }
    return true;
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = timer;
  }

  /** The earliest timer that was not cleared. */
  private pop(): Timer | undefined {
    for (;;) {
      const heap = this.heap;
      const top = heap[0];
      if (!top) return undefined;
      const last = heap.pop()!;
      if (heap.length > 0) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= heap.length) break;
          const child = left + 1 < heap.length && before(heap[left + 1]!, heap[left]!) ? left + 1 : left;
          if (!before(heap[child]!, last)) break;
          heap[i] = heap[child]!;
          i = child;
        }
        heap[i] = last;
      }
      if (this.cancelled.delete(top.id)) continue;
      return top;
    }
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
