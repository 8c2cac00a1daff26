import { stat } from 'node:fs/promises';
import { isTerminalEvent, isTerminalStatus, type MessageRef, type ProgressCard } from '@progresscard/core';
import { createTraceLineReader, detectFormat, DETECT_MAX_LINES, type TraceFormat, type TraceItem, type TraceLineReader } from '@progresscard/sources';
import { readAppended, type TailPosition } from './file-tail.js';
import type { WatchLocation } from './locations.js';
import type { OpenRunState, WatchState } from './watch-state.js';

/** Formats whose files record no run ending: a run ends after the file stays quiet (see `idleMs`). */
const NO_RECORDED_ENDING: ReadonlySet<TraceFormat> = new Set(['claude-transcript', 'gemini-chat']);

/**
 * A run of a format that does record its ending (a Codex rollout's `task_complete`, …) but whose
 * file got no new line for this many times `idleMs` (default 20 minutes) ends as cancelled, tools
 * running or not: its agent stopped without writing the end (killed, crashed, the machine slept).
 */
export const STOPPED_AGENT_IDLE_FACTOR = 10;

/** How often a file with a mirrored run is read again even without a change event, ms. */
const RECHECK_MS = 2_000;

/** What a follower needs from the watch command. */
export interface FollowerDeps {
  readonly state: WatchState;
  /** Opens one card per channel for a run, continuing `messages` where given. */
  openCards(file: string, messages: Readonly<Record<string, MessageRef>> | undefined): Map<string, ProgressCard>;
  /**
   * For files without recorded run endings: a run with no tool call running ends (as the replay
   * ends it at the end of the file) after the file got no new line for this long, ms.
   */
  readonly idleMs: number;
  /** Reports what happens (a card opened, a bad line). */
  report(line: string): void;
  /** Run `run` of `file` ended (its end was read, or watch ended it): its cards now deliver their finals. */
  runEnded(file: string, run: number, cards: ReadonlyMap<string, ProgressCard>): void;
}

interface MirroredRun {
  readonly run: number;
  readonly cards: Map<string, ProgressCard>;
}

/**
 * Follows one session file: converts what is appended with the trace reader of its format and
 * mirrors each run onto one card per channel. Reads are serialized; the position and the open
 * run's card messages go to the watch state after every read.
 */
export class SessionFollower {
  private reader: TraceLineReader | undefined;
  private headLines: string[] = [];
  private position: TailPosition | undefined;
  private readFrom = 0;
  /** Runs below this number are not mirrored (they ended before watch saw them). */
  private mirrorFromRun = 1;
  private resume: OpenRunState | undefined;
  private current: MirroredRun | undefined;
  private queue: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Epoch ms of the last read that found new lines. */
  private lastGrowthAt = Date.now();

  constructor(readonly path: string, private readonly location: WatchLocation, private readonly deps: FollowerDeps) {}

  /**
   * First look at the file. With a saved state: an open run is read again from where its reading
   * began and continues on its saved messages; otherwise reading goes on from the saved offset.
   * Without one, a file that existed when watch started (`existing`) is read silently and only a
   * run still going (the file changed within `idleMs`) gets a card; a new file is mirrored from its start.
   */
  start(existing: boolean): Promise<void> {
    return this.serialized(async () => {
      const saved = this.deps.state.get(this.path);
      if (saved?.open) {
        this.resume = saved.open;
        this.mirrorFromRun = saved.open.run;
        this.readFrom = saved.readFrom;
        await this.read({ ino: saved.ino, offset: saved.readFrom }, false);
      } else if (saved) {
        this.readFrom = saved.offset;
        await this.read(saved, false);
      } else if (existing) {
        const info = await stat(this.path);
        const recent = Date.now() - info.mtimeMs < this.deps.idleMs;
        await this.read(undefined, true, recent);
      } else {
        await this.read(undefined, false);
      }
    });
  }

  /** The run whose card is open now, if any (it stays open when watch stops). */
  openRun(): { readonly run: number; readonly cards: ReadonlyMap<string, ProgressCard> } | undefined {
    return this.current;
  }

  /** The file changed: mirrors what was appended. */
  changed(): Promise<void> {
    return this.serialized(() => this.read(this.position, false));
  }

  /** Stops the idle timer and writes the state (open runs stay open for the next watch). */
  async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await this.serialized(() => this.save());
  }

  private serialized(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task).catch((error: unknown) => this.deps.report(`${this.path}: ${(error as Error).message}`));
    this.queue = next;
    return next;
  }

  /**
   * Reads appended lines. `catchUp`: the lines were written before watch looked; only the last
   * run, if still going and `recent`, is mirrored.
   */
  private async read(from: TailPosition | undefined, catchUp: boolean, recent = false): Promise<void> {
    const result = await readAppended(this.path, from);
    if (result.restarted) {
      this.deps.report(`${this.path}: truncated or replaced, reading it from the start`);
      this.closeRun('the session file was truncated or replaced');
      this.reader = undefined;
      this.headLines = [];
      this.readFrom = 0;
      this.mirrorFromRun = 1;
      this.resume = undefined;
    }
    this.position = result.position;
    if (result.lines.length > 0) this.lastGrowthAt = Date.now();
    const items: TraceItem[] = [];
    for (const line of result.lines) items.push(...this.convert(line));
    if (catchUp) {
      const runs = items.flatMap((item) => (item.kind === 'event' ? [item] : []));
      const last = runs.at(-1);
      const lastOpen = last !== undefined && !isTerminalEvent(last.event);
      this.mirrorFromRun = last === undefined ? 1 : lastOpen && recent ? last.run : last.run + 1;
    }
    for (const item of items) this.handle(item);
    this.armIdle();
    await this.save();
  }

  private convert(line: string): TraceItem[] {
    if (this.reader) return this.reader.pushLine(line);
    this.headLines.push(line);
    const format = this.location.format === 'auto' ? detectFormat(this.headLines) : this.location.format;
    if (!format) {
      if (this.headLines.length >= DETECT_MAX_LINES) this.headLines = [];
      return [];
    }
    this.reader = createTraceLineReader(format);
    const head = this.headLines;
    this.headLines = [];
    return head.flatMap((held) => this.reader!.pushLine(held));
  }

  private handle(item: TraceItem): void {
    if (item.kind === 'error') {
      this.deps.report(`${this.path} ${item.message} (skipped)`);
      return;
    }
    if (item.run < this.mirrorFromRun) return;
    if (!this.current || this.current.run !== item.run) {
      this.closeRun('the session moved on to its next run');
      const messages = this.resume?.run === item.run ? this.resume.messages : undefined;
      this.current = { run: item.run, cards: this.deps.openCards(this.path, messages) };
      this.saveOnceSent(this.current);
      this.deps.report(`${messages ? 'continuing' : 'mirroring'} run ${item.run} of ${this.path}`);
    }
    for (const card of this.current.cards.values()) card.push(item.event);
    if (isTerminalEvent(item.event)) {
      this.deps.runEnded(this.path, item.run, this.current.cards);
      this.current = undefined;
    }
  }

  /** Writes the state once every card of `run` has its message, so a restart continues those messages. */
  private saveOnceSent(run: MirroredRun): void {
    const timer = setInterval(() => {
      if (this.current !== run) return clearInterval(timer);
      if ([...run.cards.values()].every((card) => card.message !== undefined)) {
        clearInterval(timer);
        void this.serialized(() => this.save());
      }
    }, 200);
    timer.unref();
  }

  private closeRun(reason: string): void {
    if (!this.current) return;
    for (const card of this.current.cards.values()) if (!isTerminalStatus(card.status)) card.cancel(reason);
    this.deps.runEnded(this.path, this.current.run, this.current.cards);
    this.current = undefined;
  }

  /**
   * While a run is mirrored, the file is read again every {@link RECHECK_MS} (a change event may
   * have been coalesced away). A file without recorded endings ends its run once it stayed quiet
   * for `idleMs` with no tool call running, as the replay ends it at the end of the file; a file
   * with recorded endings ends it as cancelled after {@link STOPPED_AGENT_IDLE_FACTOR} × `idleMs`.
   */
  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.current || !this.reader) return;
    this.idleTimer = setTimeout(() => {
      void this.serialized(async () => {
        const before = this.position?.offset;
        await this.read(this.position, false);
        if (this.position?.offset !== before || !this.current || !this.reader) return;
        const quietMs = Date.now() - this.lastGrowthAt;
        if (!NO_RECORDED_ENDING.has(this.reader.format)) {
          if (quietMs < this.deps.idleMs * STOPPED_AGENT_IDLE_FACTOR) return;
          this.closeRun(`the session wrote nothing for ${Math.round(quietMs / 1000)} s: its agent stopped without recording the run's end`);
          await this.save();
          return;
        }
        const running = [...this.current.cards.values()].some((card) => card.view().hasRunningTools);
        if (quietMs < this.deps.idleMs || running) return;
        for (const item of this.reader.end()) this.handle(item);
        await this.save();
      });
    }, Math.min(RECHECK_MS, this.deps.idleMs));
    this.idleTimer.unref();
  }

  private async save(): Promise<void> {
    if (!this.position) return;
    const open = this.current ? { run: this.current.run, messages: messagesOf(this.current.cards) } : undefined;
    await this.deps.state.set(this.path, { ...this.position, readFrom: this.readFrom, ...(open ? { open } : {}) });
  }
}

function messagesOf(cards: Map<string, ProgressCard>): Record<string, MessageRef> {
  const out: Record<string, MessageRef> = {};
  for (const [channel, card] of cards) if (card.message) out[channel] = card.message;
  return out;
}
