import { CardState, isTerminalStatus, type AgentEvent, type CardRenderer, type CardTransport, type MessageRef } from '@progresscard/core';

/** Timing of the naive design. */
const NAIVE = { perCardIntervalMs: 250, tickMs: 3000, finalRetryMs: 1000, maxFinalTries: 5 };

/**
 * The naive baseline of issue 13: every event asks for a push, a 250 ms throttle per card, a 3 s
 * tick while tools run, one serial queue per card, no shared budget. A failed progressive call is
 * dropped; a failed final is tried again after the platform's retry-after (or 1 s).
 */
export class NaiveCard {
  private readonly state: CardState;
  private message: MessageRef | undefined;
  private busy = false;
  private pending = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private tick: ReturnType<typeof setInterval> | undefined;
  private finalTries = 0;
  private done = false;
  private gaveUp = false;

  constructor(
    private readonly renderer: CardRenderer<unknown>,
    private readonly transport: CardTransport<unknown, unknown>,
    private readonly target: unknown,
  ) {
    this.state = new CardState({ startedAt: Date.now() });
  }

  /** True once the final was shown or given up. */
  get finished(): boolean {
    return this.done || this.gaveUp;
  }

  /** True while a push waits or is in flight. */
  get waiting(): boolean {
    return this.pending || this.busy;
  }

  push(event: AgentEvent): void {
    this.state.apply(event, Date.now());
    this.state.releaseText();
    if (this.state.hasRunningTools && !this.state.isTerminal) this.tick ??= setInterval(() => this.request(), NAIVE.tickMs);
    else if (this.tick) {
      clearInterval(this.tick);
      this.tick = undefined;
    }
    this.request();
  }

  private request(): void {
    this.pending = true;
    this.pump();
  }

  private pump(): void {
    if (this.busy || !this.pending || this.done || this.timer) return;
    const wait = this.lastStart + NAIVE.perCardIntervalMs - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      return;
    }
    this.pending = false;
    this.busy = true;
    this.lastStart = Date.now();
    void this.send().finally(() => {
      this.busy = false;
      this.pump();
    });
  }

  private async send(): Promise<void> {
    const view = this.state.view(Date.now());
    const final = isTerminalStatus(view.status);
    const payload = this.renderer.render(view);
    try {
      if (this.message) await this.transport.update({ message: this.message, payload, final });
      else this.message = await this.transport.send({ target: this.target, payload, idempotencyKey: `naive-${this.lastStart}`, replacing: false });
      if (final) this.done = true;
    } catch (error) {
      if (!final) return;
      if (++this.finalTries >= NAIVE.maxFinalTries) {
        this.gaveUp = true;
        return;
      }
      const failure = this.transport.classify(error);
      const wait = failure.kind === 'rate-limited' ? (failure.retryAfterMs ?? NAIVE.finalRetryMs) : NAIVE.finalRetryMs;
      setTimeout(() => this.request(), wait);
    }
  }
}
