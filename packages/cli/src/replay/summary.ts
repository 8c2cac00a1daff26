import { pc } from '../terminal/colors.js';
import { formatDuration } from '@progresscard/core/plugin';
import type { CardStatus, ChannelStats } from '@progresscard/core';
import type { PreviewCounts } from '../preview/model.js';
import type { CardOutcome, ReplayResult } from './engine.js';
import type { LoadedTrace } from './trace.js';

/** One channel's line of the summary. */
export interface ChannelSummary {
  readonly channel: string;
  /** Final status of each run's card, in run order. */
  readonly statuses: readonly CardStatus[];
  /** What the trace records for each run (`cancelled` for a run the trace leaves open: the replay cancels it). */
  readonly expected: readonly CardStatus[];
  /** Every card ended in the expected state and the platform accepted that final state. */
  readonly ok: boolean;
  /** Card API calls made (token calls not counted). */
  readonly calls: number;
  /** Calls the platform answered with an error. */
  readonly rejected: number;
  /** Of those, rate-limit answers. */
  readonly rateLimited: number;
  /** Where the counts come from: the emulator's call history, or the core's counters (real platforms). */
  readonly countsFrom: 'emulator' | 'core';
  /** Run time shown on the cards (trace time), summed over the runs, ms. */
  readonly elapsedMs: number;
}

/** What `replay --json` prints (with the final payloads) and the text summary shows. */
export interface ReplaySummary {
  readonly ok: boolean;
  readonly interrupted: boolean;
  readonly trace: {
    readonly name: string;
    readonly format: string;
    readonly events: number;
    readonly runs: number;
    readonly spanMs: number;
    readonly warnings: readonly string[];
  };
  readonly speed: number;
  readonly tickMs: number;
  /** Wall time of the replay, ms. */
  readonly wallMs: number;
  readonly channels: readonly ChannelSummary[];
}

/** Core counters → calls / rejected / rate-limited. */
export function countsFromStats(stats: ChannelStats): PreviewCounts {
  const calls = stats.sent + stats.updated + stats.failed;
  return { calls, accepted: stats.sent + stats.updated, rejected: stats.failed, rateLimited: stats.rateLimited };
}

function cardOk(card: CardOutcome): boolean {
  return card.status === (card.expected ?? 'cancelled') && card.final?.ok === true;
}

/**
 * Builds the summary. `counts(channel)` gives the emulator's read-back counts when the channel ran
 * on an emulator; otherwise the core's counters are used.
 */
export function summarize(
  trace: LoadedTrace,
  result: ReplayResult,
  settings: { speed: number; tickMs: number },
  counts: (channel: string) => PreviewCounts | undefined,
): ReplaySummary {
  const channelIds = [...new Set(result.cards.map((c) => c.channel))];
  for (const id of Object.keys(result.stats)) if (!channelIds.includes(id)) channelIds.push(id);
  const channels = channelIds.map((channel): ChannelSummary => {
    const cards = result.cards.filter((c) => c.channel === channel);
    const read = counts(channel);
    const c = read ?? countsFromStats(result.stats[channel]!);
    return {
      channel,
      statuses: cards.map((card) => card.status),
      expected: cards.map((card) => card.expected ?? 'cancelled'),
      ok: cards.length > 0 && cards.every(cardOk),
      calls: c.calls,
      rejected: c.rejected,
      rateLimited: c.rateLimited,
      countsFrom: read ? 'emulator' : 'core',
      elapsedMs: cards.reduce((sum, card) => sum + card.view.elapsedMs, 0),
    };
  });
  return {
    ok: !result.interrupted && channels.length > 0 && channels.every((c) => c.ok),
    interrupted: result.interrupted,
    trace: {
      name: trace.name,
      format: trace.format,
      events: trace.events.length,
      runs: trace.runs.length,
      spanMs: trace.spanMs,
      warnings: trace.warnings,
    },
    speed: settings.speed,
    tickMs: settings.tickMs,
    wallMs: result.wallMs,
    channels,
  };
}

/** Rounds a speed for display: `2.38×`, `60×`. */
export function formatSpeed(speed: number): string {
  return `${Number(speed.toFixed(speed < 10 ? 2 : 1))}×`;
}

const STATUS_COLOR: Record<CardStatus, (s: string) => string> = {
  completed: pc.green,
  failed: pc.red,
  cancelled: pc.yellow,
  running: pc.blue,
  waiting: pc.magenta,
};

/** The summary as terminal text (colours via picocolors, off when not a TTY or NO_COLOR is set). */
export function formatSummary(summary: ReplaySummary): string {
  const lines: string[] = [];
  const t = summary.trace;
  lines.push(
    pc.bold('Summary') +
      ` · ${t.name} (${t.format}) · ${t.events} events, ${t.runs} run${t.runs === 1 ? '' : 's'}` +
      ` · ${formatSpeed(summary.speed)} (tick ${summary.tickMs} ms) · replayed in ${(summary.wallMs / 1000).toFixed(1)} s`,
  );
  if (t.warnings.length) lines.push(pc.yellow(`  ${t.warnings.length} unreadable trace line(s) skipped (see the warnings above)`));
  const width = Math.max(...summary.channels.map((c) => c.channel.length), 8);
  for (const c of summary.channels) {
    const mark = c.ok ? pc.green('✓') : pc.red('✗');
    const statuses = c.statuses.map((s) => STATUS_COLOR[s](s)).join(', ') || pc.dim('(no card)');
    const expected = c.ok ? '' : pc.red(` (trace: ${c.expected.join(', ')})`);
    const calls = `${c.calls} call${c.calls === 1 ? '' : 's'}, ${c.rejected} rejected (${c.rateLimited} rate-limited)`;
    lines.push(`  ${mark} ${c.channel.padEnd(width)}  ${statuses}${expected} · ${calls} · run ${formatDuration(c.elapsedMs, 'en')}`);
  }
  if (summary.interrupted) lines.push(pc.yellow('  interrupted: running cards were ended as cancelled'));
  return lines.join('\n');
}
