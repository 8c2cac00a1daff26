import { isTerminalStatus, type AgentEvent, type CardRenderer, type CardView } from '@progresscard/core';

/** What a rendered payload shows, as far as staleness is concerned. */
export interface Shown {
  /** Tool lines plus finished tool lines: every tool start and finish adds one. */
  readonly toolChanges: number;
  readonly answerChars: number;
  readonly terminal: boolean;
}

/** Percentiles of a list of ms. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One run's events waiting to be seen in the chat. */
class RunWatch {
  /** Tool changes not shown yet: the tool changes a payload must show, when pushed, and whether the chat showed the card then. */
  readonly tools: { need: number; at: number; cardShown: boolean }[] = [];
  readonly answer: { need: number; at: number }[] = [];
  startedAt: number | undefined;
  endedAt: number | undefined;
  firstShown = false;
  /** When the chat first showed the run (its first card's arrival). */
  firstShownAt = Number.POSITIVE_INFINITY;
  finalShown = false;
  /** True while the run has a change the chat does not show yet (a tool, answer text, its first card or its final). */
  get unshown(): boolean {
    return (
      this.tools.length > 0 ||
      this.answer.length > 0 ||
      (!this.firstShown && this.startedAt !== undefined) ||
      (!this.finalShown && this.endedAt !== undefined)
    );
  }
  private toolChanges = 0;
  private answerChars = 0;

  pushed(event: AgentEvent, at: number): void {
    if (event.type === 'run.started' && this.startedAt === undefined) this.startedAt = at;
    else if (event.type === 'tool.started' || event.type === 'tool.finished') this.tools.push({ need: ++this.toolChanges, at, cardShown: this.firstShown });
    else if (event.type === 'answer.delta' && event.text) {
      this.answerChars += event.text.length;
      this.answer.push({ need: this.answerChars, at });
    }
    else if ((event.type === 'run.completed' || event.type === 'run.failed' || event.type === 'run.cancelled') && this.endedAt === undefined) this.endedAt = at;
    this.startedAt ??= at;
  }
}

/**
 * Measures staleness: the time from an event being pushed to the first accepted payload (at its
 * arrival) that shows it. Payloads are recognized through the renderer wrapper {@link wrap}.
 */
export class StalenessTracker {
  readonly tool: number[] = [];
  /** The tool changes pushed to a card the chat already showed: what the update route carries (the others wait for the card's first message too). */
  readonly toolOnShownCard: number[] = [];
  readonly answer: number[] = [];
  readonly firstCard: number[] = [];
  readonly final: number[] = [];
  /** The finals of runs whose first card had not shown when they ended (their final is their first message). */
  readonly finalBeforeFirstCard: number[] = [];
  private readonly shown = new WeakMap<object, Shown>();
  private readonly runs: RunWatch[] = [];
  /** Runs with a change the chat does not show yet ({@link RunWatch.unshown}), kept as events come and go. */
  private unshownRuns = 0;
  /** {@link unshownRuns} as each event was pushed: how many cards a change competes with. */
  readonly unshownAtEvents: number[] = [];
  /** Index of the app each run is on (several apps: a card stays on its chat's app; default all on one). */
  private readonly appOfRun: number[] = [];
  /** Runs with an unshown change per app. */
  private unshownPerApp: number[] = [0];
  /** The unshown runs of the pushing run's app as each event was pushed: how many cards a change competes with for its app's budget. */
  readonly unshownOnAppAtEvents: number[] = [];

  constructor(runCount: number) {
    for (let i = 0; i < runCount; i++) this.runs.push(new RunWatch());
  }

  /** Counts unshown changes per app over `apps` apps (each run on app 0 until {@link placeRun}). */
  placeOnApps(apps: number): void {
    this.unshownPerApp = Array.from({ length: apps }, () => 0);
  }

  /** Places run `run` on app index `app` (where its card was opened), before its first event is pushed. */
  placeRun(run: number, app: number): void {
    this.appOfRun[run] = app;
  }

  /** A renderer that remembers what each payload shows. */
  wrap<P>(renderer: CardRenderer<P>): CardRenderer<P> {
    const mark = (payload: P, view: CardView): P => {
      if (payload && typeof payload === 'object') this.shown.set(payload, shownBy(view));
      return payload;
    };
    return {
      render: (view) => mark(renderer.render(view), view),
      renderFallback: (view) => mark(renderer.renderFallback(view), view),
      ...(renderer.renderContinuations ? { renderContinuations: (view: CardView) => renderer.renderContinuations!(view) } : {}),
    };
  }

  /** Run `run` pushed `event` at `at`. */
  pushed(run: number, event: AgentEvent, at: number): void {
    const watch = this.runs[run]!;
    const before = watch.unshown;
    watch.pushed(event, at);
    this.recount(run, before, watch.unshown);
    this.unshownAtEvents.push(this.unshownRuns);
    this.unshownOnAppAtEvents.push(this.unshownPerApp[this.appOfRun[run] ?? 0]!);
  }

  /** Cards that have a real change waiting to be shown (not a tick, not a call in flight without news). */
  get cardsWithUnshownChange(): number {
    return this.unshownRuns;
  }

  private recount(run: number, before: boolean, after: boolean): void {
    if (before === after) return;
    this.unshownRuns += after ? 1 : -1;
    this.unshownPerApp[this.appOfRun[run] ?? 0]! += after ? 1 : -1;
  }

  /** The platform accepted `payload` for run `run`, arriving at `at`. */
  accepted(run: number, payload: unknown, at: number): void {
    const shown = payload && typeof payload === 'object' ? this.shown.get(payload) : undefined;
    if (shown) this.acceptedShown(run, shown, at);
  }

  /** The platform accepted a call for run `run` (a native stream's), arriving at `at`, after which the chat shows `shown`. */
  acceptedShown(run: number, shown: Shown, at: number): void {
    const watch = this.runs[run];
    if (!watch) return;
    const before = watch.unshown;
    this.show(watch, shown, at);
    this.recount(run, before, watch.unshown);
  }

  private show(watch: RunWatch, shown: Shown, at: number): void {
    if (!watch.firstShown && watch.startedAt !== undefined) {
      watch.firstShown = true;
      watch.firstShownAt = at;
      this.firstCard.push(at - watch.startedAt);
    }
    while (watch.tools.length > 0 && watch.tools[0]!.need <= shown.toolChanges) this.toolShown(watch.tools.shift()!, at);
    while (watch.answer.length > 0 && watch.answer[0]!.need <= shown.answerChars) this.answer.push(at - watch.answer.shift()!.at);
    if (shown.terminal && !watch.finalShown && watch.endedAt !== undefined) {
      watch.finalShown = true;
      this.final.push(at - watch.endedAt);
      if (watch.firstShownAt > watch.endedAt) this.finalBeforeFirstCard.push(at - watch.endedAt);
      // The final card shows the run as it ended (a final answer may replace the streamed one).
      for (const event of watch.tools.splice(0)) this.toolShown(event, at);
      for (const event of watch.answer.splice(0)) this.answer.push(at - event.at);
    }
  }

  private toolShown(change: { at: number; cardShown: boolean }, at: number): void {
    this.tool.push(at - change.at);
    if (change.cardShown) this.toolOnShownCard.push(at - change.at);
  }

  /**
   * The point ended: every event never shown counts as infinitely stale (so a design that drops
   * updates is not measured only on what it delivered; a p99 over them reads "never").
   */
  close(): void {
    for (const watch of this.runs) {
      for (const event of watch.tools.splice(0)) this.toolShown(event, Number.POSITIVE_INFINITY);
      for (const _ of watch.answer.splice(0)) this.answer.push(Number.POSITIVE_INFINITY);
      if (!watch.firstShown && watch.startedAt !== undefined) this.firstCard.push(Number.POSITIVE_INFINITY);
      if (!watch.finalShown && watch.endedAt !== undefined) {
        this.final.push(Number.POSITIVE_INFINITY);
        if (watch.firstShownAt > watch.endedAt) this.finalBeforeFirstCard.push(Number.POSITIVE_INFINITY);
      }
    }
  }

  /** Runs whose final is not shown yet. */
  get openRuns(): number {
    return this.runs.filter((watch) => !watch.finalShown).length;
  }
}

function shownBy(view: CardView): Shown {
  let done = 0;
  for (const tool of view.tools) if (tool.state !== 'running') done += 1;
  return { toolChanges: view.tools.length + done, answerChars: view.answer.length, terminal: isTerminalStatus(view.status) };
}
