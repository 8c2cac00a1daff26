import { pc } from '../terminal/colors.js';
import type { Locale } from '@progresscard/core';
import type { AnyChannelPlugin } from '../channels/descriptor.js';
import { emulatedPlugins, startEmulators, type Emulators } from '../channels/emulated.js';
import { realPlugins } from '../channels/real.js';
import { EXIT } from '../errors.js';
import { waitFor, type CliIO } from '../io.js';
import type { ChannelId } from '../channels/index.js';
import { startPreviewServer, type PreviewServer, type RunInfo } from '../preview/server.js';
import { replayTickMs } from '../replay/clock.js';
import { replayTrace, type ReplayProgress } from '../replay/engine.js';
import { finalPayloads } from '../replay/payloads.js';
import { countsFromStats, formatSpeed, formatSummary, summarize } from '../replay/summary.js';
import { loadTrace, resolveTrace, type FormatChoice } from '../replay/trace.js';
import { createProgressReporter } from '../terminal/progress.js';

/** Everything `demo` and `replay` share: one trace, replayed to the chosen channels. */
export interface SessionOptions {
  /** A bundled trace name or a file path. */
  readonly trace: string;
  /** How the trace was given, for error messages (`--trace`, `<file>`). */
  readonly traceLabel: string;
  readonly format?: FormatChoice;
  readonly channels: readonly ChannelId[];
  /** Fixed speed; undefined picks one so the replay takes about {@link targetSeconds}. */
  readonly speed?: number;
  readonly targetSeconds: number;
  /** Longest pause kept between two events, ms (0 = no cap). */
  readonly maxGapMs: number;
  readonly locale?: Locale;
  readonly real: boolean;
  readonly preview: boolean;
  readonly port: number;
  /** After the run, keep the preview up until Ctrl-C. */
  readonly keepOpen: boolean;
  /** Without keepOpen: how long the preview stays up after the run (ms). */
  readonly lingerMs: number;
  readonly json: boolean;
}

/** Highest automatic speed (a fixed `--speed` may go higher). */
export const MAX_AUTO_SPEED = 1000;

/**
 * Speed that makes a trace spanning `spanMs` take about `targetSeconds`: never slower than
 * recorded (≥ 1×), at most {@link MAX_AUTO_SPEED}.
 */
export function autoSpeed(spanMs: number, targetSeconds: number): number {
  const speed = spanMs / (targetSeconds * 1000);
  return Math.min(MAX_AUTO_SPEED, Math.max(1, Number(speed.toFixed(2))));
}

/**
 * Runs one replay session: loads the trace, starts the emulators (or checks the real-platform
 * environment), serves the preview, replays, prints the summary. Returns the exit code.
 * @throws CliUsageError (exit 2) for missing `--real` variables or an unreadable trace, before anything is sent.
 */
export async function runSession(o: SessionOptions, io: CliIO): Promise<number> {
  const info = (line: string) => (o.json ? io.stderr : io.stdout).write(`${line}\n`);
  const warn = (line: string) => io.stderr.write(`${pc.yellow('warning:')} ${line}\n`);

  // With --real, check the environment before reading anything, so a missing variable fails fast.
  const settingsFor = (speed: number) => ({ tickMs: replayTickMs(speed), locale: o.locale });
  if (o.real) realPlugins(o.channels, io.env, settingsFor(1));

  const ref = await resolveTrace(o.trace, o.traceLabel);
  const trace = await loadTrace(ref.path, ref.name, {
    format: o.format,
    maxGapMs: o.maxGapMs,
    onWarning: (message) => warn(`${ref.name} ${message} (skipped)`),
  });
  const speed = o.speed ?? autoSpeed(trace.spanMs, o.targetSeconds);
  const tickMs = replayTickMs(speed);
  info(
    `${pc.bold('progresscard')} replaying ${pc.cyan(trace.name)} (${trace.format}): ${trace.events.length} events, ` +
      `${trace.runs.length} run${trace.runs.length === 1 ? '' : 's'}, ${(trace.spanMs / 1000).toFixed(1)} s of trace ` +
      `at ${formatSpeed(speed)} ≈ ${(trace.spanMs / speed / 1000).toFixed(1)} s; tool tick every ${tickMs} ms ` +
      `to ${o.real ? 'the real ' : 'emulated '}${o.channels.join(' + ')}`,
  );

  let emulators: Emulators | undefined;
  let preview: PreviewServer | undefined;
  let phase: RunInfo['phase'] = 'replaying';
  let last: ReplayProgress | undefined;
  try {
    let plugins: AnyChannelPlugin[];
    if (o.real) {
      plugins = realPlugins(o.channels, io.env, settingsFor(speed));
    } else {
      emulators = await startEmulators(o.channels);
      plugins = emulatedPlugins(emulators, settingsFor(speed));
      for (const channel of emulators.channels) info(`  ${channel.descriptor.id} emulator: ${channel.baseUrl}`);
    }
    if (o.preview && emulators) {
      const runInfo = (): RunInfo => ({
        title: 'progresscard',
        trace: trace.name,
        format: trace.format,
        speed,
        tickMs,
        eventsTotal: trace.events.length,
        eventsDone: last?.eventsDone ?? 0,
        phase,
      });
      preview = await startPreviewServer({ sources: emulators.sources, runInfo, port: o.port });
      info(`  live preview: ${pc.underline(pc.cyan(preview.url))}`);
    } else if (o.preview && o.real) {
      info(pc.dim('  (no live preview with --real: look at the chat itself)'));
    }

    let stats: Record<string, ReturnType<typeof countsFromStats>> = {};
    const countsOf = (channel: string) =>
      emulators?.sources.find((s) => s.id === channel)?.counts() ?? stats[channel] ?? { calls: 0, accepted: 0, rejected: 0, rateLimited: 0 };
    const reporter = createProgressReporter({ stream: io.stderr, channels: o.channels, counts: countsOf, quiet: o.json && !io.stderr.isTTY });
    const result = await replayTrace({
      trace,
      channels: plugins,
      speed,
      locale: o.locale,
      signal: io.signal,
      onProgress: (progress) => {
        last = progress;
        stats = Object.fromEntries(Object.entries(progress.stats).map(([id, s]) => [id, countsFromStats(s)]));
        reporter.update(progress);
        preview?.notify();
      },
    }).catch((error: unknown) => {
      reporter.stop();
      throw error;
    });
    stats = Object.fromEntries(Object.entries(result.stats).map(([id, s]) => [id, countsFromStats(s)]));
    // A WeCom final is delivered once a poll was answered with it; the emulator counts that poll when the
    // answer reaches it, which on a busy machine can be after the replay ended: read the counts after it.
    await Promise.all(emulators?.channels.map((channel) => channel.settled()) ?? []);
    // The last cards' lines count every call, the same counts as the summary below.
    reporter.stop();

    const summary = summarize(trace, result, { speed, tickMs }, (channel) => emulators?.sources.find((s) => s.id === channel)?.counts());
    phase = summary.ok ? 'done' : 'failed';
    preview?.notify();
    const exitCode = summary.ok ? EXIT.ok : result.interrupted ? EXIT.interrupted : EXIT.failed;
    if (o.json) {
      io.stdout.write(`${JSON.stringify({ ok: summary.ok, exitCode, summary, cards: finalPayloads(result.cards, plugins, emulators) }, null, 2)}\n`);
    } else {
      io.stdout.write(`${formatSummary(summary)}\n`);
    }

    if (preview && !result.interrupted) {
      if (o.keepOpen) {
        info(`  preview stays up at ${preview.url}; press Ctrl-C to stop`);
        await waitFor(io.signal, Number.POSITIVE_INFINITY);
      } else if (o.lingerMs > 0) {
        info(pc.dim(`  preview stays up ${Math.round(o.lingerMs / 1000)} s more (Ctrl-C to stop now; --keep-open to keep it)`));
        await waitFor(io.signal, o.lingerMs);
      }
    }
    return exitCode;
  } finally {
    await preview?.close();
    await emulators?.close();
  }
}
