import cliProgress from 'cli-progress';
import { pc } from './colors.js';
import { isTerminalStatus, type CardStatus } from '@progresscard/core';
import type { PreviewCounts } from '../preview/model.js';
import type { ReplayCardProgress, ReplayProgress } from '../replay/engine.js';

/** Shows a replay's progress on the terminal (stderr): a live bar on a TTY, status-change lines otherwise. */
export interface ProgressReporter {
  update(progress: ReplayProgress): void;
  /** Prints a line without garbling the bar. */
  log(line: string): void;
  /**
   * Ends the bar; call once every call of the replay was made (finals, completion pings, polls the
   * emulator still had to count), before the summary: without a terminal, the end of each channel's
   * latest card is printed then, its count the same as the summary's. Later calls do nothing.
   */
  stop(): void;
}

/** Options of {@link createProgressReporter}. */
export interface ProgressReporterOptions {
  readonly stream: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly channels: readonly string[];
  /** Live call counters of a channel (emulator read-back or core counters). */
  readonly counts: (channel: string) => PreviewCounts;
  /** Draw a live bar (default: when `stream` is a TTY). */
  readonly live?: boolean;
  /** Print nothing at all. */
  readonly quiet?: boolean;
}

const STATUS_COLOR: Record<CardStatus, (s: string) => string> = {
  running: pc.cyan,
  waiting: pc.magenta,
  completed: pc.green,
  failed: pc.red,
  cancelled: pc.yellow,
};

function latestStatus(progress: ReplayProgress, channel: string): CardStatus | undefined {
  const cards = progress.cards.filter((c) => c.channel === channel);
  return cards[cards.length - 1]?.status;
}

/** Trace time between two progress lines when the output is not a terminal (ms). */
export const PIPE_PROGRESS_EVERY_MS = 15_000;

function seconds(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Creates the reporter; call {@link ProgressReporter.stop} before printing the summary. */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const stream = options.stream as NodeJS.WriteStream;
  if (options.quiet) return { update: () => {}, log: () => {}, stop: () => {} };
  const channelText = (progress: ReplayProgress) =>
    options.channels
      .map((id) => {
        const status = latestStatus(progress, id);
        const c = options.counts(id);
        const rate = `${c.rateLimited} rate-limited`;
        return `${pc.bold(id)} ${status ? STATUS_COLOR[status](status) : pc.dim('waiting')} ${c.calls} calls ${c.rateLimited ? pc.yellow(rate) : pc.dim(rate)}`;
      })
      .join(pc.dim(' │ '));

  if (options.live ?? stream.isTTY === true) {
    const multi = new cliProgress.MultiBar(
      {
        stream,
        format: `{bar} {value}/{total} events · trace {trace} │ {channels}`,
        barsize: 24,
        hideCursor: true,
        clearOnComplete: false,
        linewrap: false,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    let bar: cliProgress.SingleBar | undefined;
    return {
      update(progress) {
        const payload = { trace: seconds(progress.traceMs), channels: channelText(progress) };
        if (!bar) bar = multi.create(progress.eventsTotal, progress.eventsDone, payload);
        else bar.update(progress.eventsDone, payload);
      },
      log: (line) => multi.log(`${line}\n`),
      stop: () => multi.stop(),
    };
  }

  // Not a terminal (a pipe, CI, a test): one line whenever a card's status changes, and a progress
  // line every PIPE_PROGRESS_EVERY_MS of trace time in between, so a piped run is never silent for long.
  // A card's terminal status arrives with the agent's last event, before its final calls, so its line
  // waits: a card that a later run followed on its channel is printed once its final settled, with its
  // own calls (`FinalDelivery.calls`); each channel's latest card at `stop()`, once every call of the
  // replay was made (the completion ping's check of the chat comes after the final), with the
  // channel's count less its earlier cards': the count the summary shows for a one-run replay.
  const seen = new Map<string, CardStatus>();
  let lastLineAt = 0;
  let last: ReplayProgress | undefined;
  let stopped = false;
  const keyOf = (card: ReplayCardProgress) => `${card.channel}#${card.run}`;
  const write = (progress: ReplayProgress, card: ReplayCardProgress, calls: string) => {
    seen.set(keyOf(card), card.status);
    stream.write(
      `[${seconds(progress.traceMs)}] ${card.channel}${progress.cards.length > options.channels.length ? ` run ${card.run}` : ''}: ` +
        `${card.status} (${progress.eventsDone}/${progress.eventsTotal} events, ${calls}, ${options.counts(card.channel).rateLimited} rate-limited)\n`,
    );
  };
  const isLatest = (progress: ReplayProgress, card: ReplayCardProgress) => progress.cards.findLast((c) => c.channel === card.channel) === card;
  return {
    update(progress) {
      last = progress;
      let wrote = false;
      for (const card of progress.cards) {
        if (seen.get(keyOf(card)) === card.status) continue;
        if (!isTerminalStatus(card.status)) write(progress, card, `${options.counts(card.channel).calls} calls so far`);
        else if (card.settled && card.calls !== undefined && !isLatest(progress, card)) write(progress, card, `${card.calls} calls for this card, final included`);
        else continue;
        wrote = true;
      }
      if (wrote) lastLineAt = progress.traceMs;
      else if (progress.traceMs - lastLineAt >= PIPE_PROGRESS_EVERY_MS) {
        lastLineAt = progress.traceMs;
        const channels = options.channels.map((id) => `${id} ${options.counts(id).calls} calls`).join(', ');
        stream.write(`[${seconds(progress.traceMs)}] ${progress.eventsDone}/${progress.eventsTotal} events · ${channels}\n`);
      }
    },
    log: (line) => stream.write(`${line}\n`),
    stop: () => {
      if (stopped || !last) return;
      stopped = true;
      const progress = last;
      for (const card of progress.cards) {
        if (seen.get(keyOf(card)) === card.status || !isTerminalStatus(card.status)) continue;
        const earlier = progress.cards.filter((c) => c.channel === card.channel && c !== card);
        const earlierCalls = earlier.reduce((sum, c) => sum + (c.calls ?? Number.NaN), 0);
        const own = isLatest(progress, card) && Number.isFinite(earlierCalls) ? options.counts(card.channel).calls - earlierCalls : card.calls;
        if (!card.settled) write(progress, card, `${options.counts(card.channel).calls} calls so far, final not settled`);
        else write(progress, card, own === undefined ? `${options.counts(card.channel).calls} calls on the channel` : `${own} calls for this card, final included`);
      }
    },
  };
}
