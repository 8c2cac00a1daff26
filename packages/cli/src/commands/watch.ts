import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { watch as watchFiles, type FSWatcher } from 'chokidar';
import { createProgressCards, silentLogger, type Locale, type ProgressCard } from '@progresscard/core';
import type { AnyChannelPlugin } from '../channels/descriptor.js';
import { emulatedPlugins, startEmulators, type Emulators } from '../channels/emulated.js';
import type { ChannelId } from '../channels/index.js';
import { realPlugins } from '../channels/real.js';
import { CliUsageError, EXIT } from '../errors.js';
import { waitFor, type CliIO } from '../io.js';
import { startPreviewServer, type PreviewServer } from '../preview/server.js';
import { replayTickMs } from '../replay/clock.js';
import { pc } from '../terminal/colors.js';
import { missingGivenFolders, watchLocations, type LocationOptions, type WatchLocation } from '../watch/locations.js';
import { whenFolderAppears, type FolderAppearance } from '../watch/folder-appearance.js';
import { RunOutcomes } from '../watch/run-outcomes.js';
import { SessionFollower } from '../watch/session-follower.js';
import { WatchState } from '../watch/watch-state.js';

/** Default state file: `~/.progresscard/watch-state.json`. */
export function defaultStatePath(home = homedir()): string {
  return join(home, '.progresscard', 'watch-state.json');
}

/** Default quiet time after which a Claude Code / Gemini CLI run with no tool running ends, ms. */
export const DEFAULT_IDLE_MS = 120_000;

/** Options of {@link runWatch}. */
export interface WatchOptions extends LocationOptions {
  readonly statePath: string;
  readonly channels: readonly ChannelId[];
  readonly idleMs: number;
  readonly real: boolean;
  readonly preview: boolean;
  readonly port: number;
  readonly locale?: Locale;
}

/**
 * `progresscard watch`: follows the session files coding agents write while they run and mirrors
 * each run live onto one card per channel (the emulators with the preview page by default, the
 * real platforms with `--real`), until Ctrl-C. Each ended run is reported with where its card
 * went (channel and message id) or why its final did not arrive. Open runs stay open at exit: a
 * restart continues their cards on the same messages (with `--real`; the built-in emulators start
 * empty); the closing lines say why watch stopped, how many runs ended and where each open card is.
 * @returns the exit code: 1 when a final card did not reach its chat or the file watcher failed,
 *   else 130 (interrupted) once Ctrl-C or SIGTERM stopped it.
 * @throws CliUsageError (exit 2) for missing `--real` variables, or a folder given on the command line
 *   that does not exist (naming each), before anything is started or sent.
 */
export async function runWatch(o: WatchOptions, io: CliIO): Promise<number> {
  const missing = await missingGivenFolders(o);
  if (missing.length > 0) throw new CliUsageError(`watch: no such folder: ${missing.join(', ')}`);
  const info = (line: string) => io.stdout.write(`${line}\n`);
  const settings = { tickMs: replayTickMs(1), locale: o.locale };
  let plugins: AnyChannelPlugin[];
  let emulators: Emulators | undefined;
  let preview: PreviewServer | undefined;
  if (o.real) plugins = realPlugins(o.channels, io.env, settings);
  else {
    emulators = await startEmulators(o.channels);
    plugins = emulatedPlugins(emulators, settings);
    for (const channel of emulators.channels) info(`  ${channel.descriptor.id} emulator: ${channel.baseUrl}`);
  }
  const state = await WatchState.load(o.statePath);
  const cards = createProgressCards({ channels: plugins, logger: silentLogger, env: {} });
  const locations = watchLocations(o);
  const followers = new Map<string, SessionFollower>();
  let watcher: FSWatcher | undefined;
  const appearances: FolderAppearance[] = [];
  const outcomes = new RunOutcomes((line) => info(`  ${line}`), (line) => io.stderr.write(`${pc.red('✗')} ${line}\n`));
  // Stops on Ctrl-C / SIGTERM, or when the file watcher fails (its error is the reason).
  const stop = new AbortController();
  let watcherError: string | undefined;
  const interrupted = () => stop.abort();
  io.signal.addEventListener('abort', interrupted, { once: true });
  if (io.signal.aborted) stop.abort();
  try {
    if (o.preview && emulators) {
      preview = await startPreviewServer({ sources: emulators.sources, runInfo: () => ({ title: 'progresscard watch', phase: 'replaying' }), port: o.port });
      info(`  live preview: ${pc.underline(pc.cyan(preview.url))}`);
    }
    const openCards = (_file: string, messages: Readonly<Record<string, { id: string }>> | undefined) => {
      const opened = new Map<string, ProgressCard>();
      for (const plugin of plugins) {
        const message = messages?.[plugin.id];
        opened.set(plugin.id, cards.open(plugin.id, undefined, { ...(o.locale ? { locale: o.locale } : {}), ...(message ? { message } : {}) }));
      }
      return opened;
    };
    const deps = {
      state,
      openCards,
      idleMs: o.idleMs,
      report: (line: string) => info(pc.dim(`  ${line}`)),
      runEnded: (file: string, run: number, cards: ReadonlyMap<string, ProgressCard>) => outcomes.track(file, run, cards),
    };
    const locationOf = (path: string): WatchLocation | undefined => locations.find((l) => path.startsWith(resolve(l.dir)) && l.matches(path));

    let ready = false;
    // Only existing folders: chokidar reports nothing for one that does not exist yet. A default folder
    // (an agent that never ran) is added to the watch when it appears.
    const roots = locations.map((l) => resolve(l.dir));
    const present = await Promise.all(roots.map((root) => stat(root).then((info) => info.isDirectory(), () => false)));
    const presentRoots = roots.filter((_root, i) => present[i]);
    watcher = watchFiles(presentRoots, { ignoreInitial: false, persistent: true });
    const live = watcher;
    live.on('error', (error: unknown) => {
      watcherError ??= error instanceof Error ? error.message : String(error);
      stop.abort();
    });
    for (const [i, root] of roots.entries()) if (!present[i]) appearances.push(whenFolderAppears(root, () => live.add(root)));
    const follow = (path: string) => {
      const location = locationOf(resolve(path));
      if (!location) return;
      // chokidar may report one file twice (a folder that appears is added to the watch while its first file
      // is written): a second follower would open a second card for the same session.
      const known = followers.get(resolve(path));
      if (known) return void known.changed().then(() => preview?.notify());
      const follower = new SessionFollower(resolve(path), location, deps);
      followers.set(resolve(path), follower);
      void follower.start(!ready).then(() => preview?.notify());
    };
    watcher.on('add', follow);
    watcher.on('change', follow);
    // chokidar emits `ready` once it scanned its paths; with none (no agent ever ran) there is nothing to wait for.
    if (presentRoots.length > 0) await new Promise<void>((done) => watcher!.once('ready', () => done()));
    ready = true;
    info(`${pc.bold('progresscard watch')}: following ${locations.map((l) => `${l.agent} ${l.dir}`).join(', ')} → ${o.real ? 'the real ' : 'emulated '}${o.channels.join(' + ')}; state ${o.statePath}. Ctrl-C to stop.`);
    await waitFor(stop.signal, Number.POSITIVE_INFINITY);
  } finally {
    io.signal.removeEventListener('abort', interrupted);
    await Promise.all(appearances.map((appearance) => appearance.close()));
    await watcher?.close();
    await Promise.all([...followers.values()].map((follower) => follower.stop()));
    // Running cards stay as they are (a restart continues them); what is on its way still goes out.
    const grace = waitFor(new AbortController().signal, 5_000);
    await Promise.race([Promise.all([cards.idle(), outcomes.settledAll()]), grace]);
    const open = [...followers.values()].flatMap((follower) => {
      const run = follower.openRun();
      return run ? [{ file: follower.path, ...run }] : [];
    });
    const reason = watcherError !== undefined ? `the file watcher failed: ${watcherError}` : 'interrupted by Ctrl-C or SIGTERM';
    // Not stopped: an error is on its way out (the CLI prints it); no summary then.
    if (stop.signal.aborted) for (const line of outcomes.summary(reason, open)) info(line);
    await preview?.close();
    await emulators?.close();
  }
  // Ctrl-C / SIGTERM is an interrupt (130, as the help documents), unless a final card did not arrive or the watcher failed.
  return outcomes.failed || watcherError !== undefined ? EXIT.failed : EXIT.interrupted;
}
