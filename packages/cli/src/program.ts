import { Command, Option } from 'commander';
import type { Locale } from '@progresscard/core';
import { bundledTraces } from '@progresscard/sources';
import { DEFAULT_EMULATOR_PORT, runEmulatorCommand } from './commands/emulator.js';
import { runDoctor } from './commands/doctor.js';
import { runNewChannel } from './commands/new-channel.js';
import { runPlan } from './commands/plan.js';
import { runSession } from './commands/session.js';
import { runSmoke } from './commands/smoke.js';
import { DEFAULT_IDLE_MS, defaultStatePath, runWatch } from './commands/watch.js';
import type { CliIO } from './io.js';
import { channelIds, channelList, type ChannelId } from './channels/index.js';
import { realEnvHelp } from './channels/real.js';
import { addChannel, parseIdle, parseLang, parseMaxGap, parsePort, parsePositiveInteger, parseSpeed } from './options.js';
import { DEFAULT_PREVIEW_PORT } from './preview/server.js';
import { FORMAT_CHOICES, FORMAT_DESCRIPTIONS, type FormatChoice } from './replay/trace.js';
import { STOPPED_AGENT_IDLE_FACTOR } from './watch/session-follower.js';
import { CLI_VERSION } from './version.js';

/**
 * `--channel <id|…|all>`, every channel by default; `--help` shows the default as `all`, not as a
 * JSON list. Repeatable: `--channel slack --channel telegram` takes both (before, the last one won).
 */
function channelFlag(description: string): Option {
  const all = [...channelIds()];
  return new Option(`--channel <${[...channelIds(), 'all'].join('|')}>`, `${description} (repeatable)`)
    .argParser((value: string, previous: ChannelId[] | undefined) => addChannel(value, previous, (list) => list === all))
    .default(all, 'all');
}

/** The trace `demo` replays: two Task subagents running in parallel, then a completed answer. */
export const DEMO_TRACE = 'claude-session-parallel-tasks.jsonl';
/** How long `demo` (and `replay` without `--speed`) aims to take, in seconds. */
export const TARGET_SECONDS = 60;
/** Default `--max-gap`: pauses longer than this are shortened (ms). */
export const DEFAULT_MAX_GAP_MS = 30_000;
/** Without `--keep-open`, on a terminal, the preview stays up this long after the run (ms). */
export const LINGER_MS = 10_000;

interface SharedFlags {
  speed?: number;
  port: number;
  lang?: Locale;
  maxGap: number;
  keepOpen: boolean;
  preview: boolean;
  real: boolean;
}

function sharedOptions(command: Command): Command {
  return command
    .option('--speed <n>', 'replay speed-up (2 = twice as fast as recorded); default: fit the trace into about a minute', parseSpeed)
    .option('--max-gap <ms>', 'shorten pauses between events to at most this many ms (0 = keep them)', parseMaxGap, DEFAULT_MAX_GAP_MS)
    .option('--lang <zh|en>', 'card language (default: the run\'s, else the channel\'s: zh on Feishu, DingTalk and WeCom, en on Slack, Telegram, Discord and Teams)', parseLang)
    .option('--port <port>', `preview page port (0 = any free port; a taken port falls back to a free one)`, parsePort, DEFAULT_PREVIEW_PORT)
    .option('--keep-open', 'keep the preview page up after the run until Ctrl-C', false)
    .option('--no-preview', 'do not serve the live preview page')
    .option('--real', 'send to the real platform APIs (credentials from the environment, listed below)', false);
}

const REAL_HELP = `
With --real, cards go to the real platforms. Required environment:
${realEnvHelp()}
A missing variable is named before anything is sent (exit code 2).

Exit codes: 0 every card ended in the trace's terminal state; 1 one did not; 2 bad arguments or
configuration; 130 interrupted (Ctrl-C; running cards are ended as cancelled).`;

const ROOT_HELP_EXAMPLES = `
Examples:
  npx progresscard demo                                   replay a bundled trace to every channel's emulator, with a live preview
  npx progresscard replay codex-rollout-parallel.jsonl    replay a bundled trace (or any trace file) by name
  npx progresscard replay session.jsonl --json --speed 50 only a JSON summary on stdout
  npx progresscard emulator                               the emulators standalone, for your own agent
  npx progresscard doctor --emulator                      check config, credentials, renderer, guards, delivery, budget
  npx progresscard smoke --out smoke-artefacts            the scenario matrix on the emulators: payloads, preview, PNGs
  npx progresscard plan --channel feishu --tick-ms 3000   how many runs stay fresh, and how stale under load
  npx progresscard replay --help                          bundled traces, --real and exit codes
  npx progresscard new-channel acme-chat                  write a channel plugin package with its tests

Channels from plugin packages (any command, anywhere on the line):
  --plugin <module>   a module whose default export is a channel (see defineCliChannel), a list of them
                      or { channels }; a path or a package installed here; repeatable
  --config <file>     a config file whose default export is { channels: [...] }
                      (default: progresscard.config.mjs or .js in the working directory, when present)`;

/** Builds the `progresscard` command line. Commands resolve with their exit code via `setExitCode`. */
export function buildProgram(io: CliIO, setExitCode: (code: number) => void): Command {
  const labels = channelList().map((c) => c.label);
  const platforms = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels.join('');
  const program = new Command('progresscard')
    .description(`Replay real AI-agent sessions into live progress cards on ${platforms} (emulated or real).`)
    .version(CLI_VERSION, '-V, --version', 'print the version of progresscard')
    .addHelpText('after', ROOT_HELP_EXAMPLES)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  const linger = () => (io.stdout.isTTY ? LINGER_MS : 0);
  sharedOptions(
    program
      .command('demo')
      .description(`replay a bundled real trace (default ${DEMO_TRACE}) to the ${platforms} emulators, with a live preview page`)
      .option('--trace <name|file>', 'a bundled trace name (see `progresscard replay --help`) or a trace file', DEMO_TRACE)
      .addOption(channelFlag('which platform(s) to replay to')),
  )
    .addHelpText('after', REAL_HELP)
    .action(async (flags: SharedFlags & { trace: string; channel: ChannelId[] }) => {
      setExitCode(
        await runSession(
          { trace: flags.trace, traceLabel: '--trace', channels: flags.channel, targetSeconds: TARGET_SECONDS, maxGapMs: flags.maxGap, speed: flags.speed, locale: flags.lang,
            real: flags.real, preview: flags.preview, port: flags.port, keepOpen: flags.keepOpen, lingerMs: linger(), json: false },
          io,
        ),
      );
    });

  sharedOptions(
    program
      .command('replay')
      .description(`replay an agent trace file of any of ${Object.keys(FORMAT_DESCRIPTIONS).length} formats ('progresscard replay --help' lists them) into live cards`)
      .argument('<file>', 'trace file, or the name of a bundled trace')
      .addOption(new Option('--format <format>', 'trace format (default: detected from the first lines)').choices(FORMAT_CHOICES).default('auto'))
      .addOption(channelFlag('which platform(s) to replay to'))
      .option('--json', 'print only a JSON summary with the final card payloads on stdout (implies --no-preview unless --keep-open)', false),
  )
    .addHelpText('after', `\nTrace formats (--format):\n${Object.entries(FORMAT_DESCRIPTIONS).map(([format, what]) => `  ${format.padEnd(38)} ${what}`).join('\n')}\n\nBundled traces:\n${bundledTraces().map((t) => `  ${t.name.padEnd(38)} ${t.description}`).join('\n')}\n${REAL_HELP}`)
    .action(async (file: string, flags: SharedFlags & { format: FormatChoice; channel: ChannelId[]; json: boolean }) => {
      const preview = flags.preview && (!flags.json || flags.keepOpen);
      setExitCode(
        await runSession(
          { trace: file, traceLabel: 'trace file', format: flags.format, channels: flags.channel, targetSeconds: TARGET_SECONDS, maxGapMs: flags.maxGap, speed: flags.speed,
            locale: flags.lang, real: flags.real, preview, port: flags.port, keepOpen: flags.keepOpen, lingerMs: flags.json ? 0 : linger(), json: flags.json },
          io,
        ),
      );
    });

  program
    .command('watch')
    .description('mirror the Claude Code, Codex and Gemini CLI sessions running on this machine into live cards; runs on until Ctrl-C, each card ends with its run')
    .option('--claude <dir>', 'Claude Code projects folder (default ~/.claude/projects)')
    .option('--codex <dir>', 'Codex sessions folder (default ~/.codex/sessions)')
    .option('--gemini <dir>', 'Gemini CLI folder (default ~/.gemini/tmp)')
    .option('--dir <dir>', 'a folder of trace files of any format (repeatable); given folders replace the defaults and must exist', (dir: string, dirs: string[] = []) => [...dirs, dir])
    .option('--state <file>', 'where read positions and open cards are kept', defaultStatePath())
    .option('--idle <ms>', `a Claude Code / Gemini run with no tool running ends after this long without new lines; a run of a format that records its end (Codex) ends as cancelled after ${STOPPED_AGENT_IDLE_FACTOR}× this without new lines`, parseIdle, DEFAULT_IDLE_MS)
    .addOption(channelFlag('which platform(s) to post to'))
    .option('--lang <zh|en>', 'card language (default: the run\'s, else the channel\'s: zh on Feishu, DingTalk and WeCom, en on Slack, Telegram, Discord and Teams)', parseLang)
    .option('--port <port>', 'preview page port (0 = any free port)', parsePort, DEFAULT_PREVIEW_PORT)
    .option('--no-preview', 'do not serve the live preview page')
    .option('--real', 'send to the real platform APIs (credentials from the environment, listed below)', false)
    .addHelpText('after', REAL_HELP)
    .action(async (flags: { claude?: string; codex?: string; gemini?: string; dir?: string[]; state: string; idle: number; channel: ChannelId[]; lang?: Locale; port: number; preview: boolean; real: boolean }) => {
      setExitCode(
        await runWatch(
          { claude: flags.claude, codex: flags.codex, gemini: flags.gemini, dirs: flags.dir, statePath: flags.state, idleMs: flags.idle, channels: flags.channel,
            locale: flags.lang, real: flags.real, preview: flags.preview, port: flags.port },
          io,
        ),
      );
    });

  program
    .command('emulator')
    .description(`run the ${platforms} emulators standalone (and the live preview) until Ctrl-C`)
    .option('--port <port>', `${channelList()[0]!.label} emulator port; the others use the next ones (0 = free ports)`, parsePort, DEFAULT_EMULATOR_PORT)
    .option('--preview-port <port>', 'preview page port (0 = any free port)', parsePort, DEFAULT_PREVIEW_PORT)
    .option('--no-preview', 'do not serve the live preview page')
    .action(async (flags: { port: number; previewPort: number; preview: boolean }) => {
      setExitCode(await runEmulatorCommand({ port: flags.port, previewPort: flags.previewPort, preview: flags.preview }, io));
    });

  program
    .command('doctor')
    .description('check each channel layer by layer: config and env, credentials, renderer, guards, a send → update → final, budget, switches')
    .addOption(channelFlag('which platform(s) to check'))
    .option('--emulator', 'check against the embedded emulators instead of the platforms in the environment', false)
    .option('--explain', 'print every detail line', false)
    .option('--json', 'print the report as JSON (shape in the CLI README)', false)
    .option('--no-send', 'skip the send → update → final round trip')
    .addHelpText('after', `\nEnvironment (without --emulator):\n${realEnvHelp()}\n\nExit codes: 0 every check passed (warnings allowed); 1 a check failed; 2 bad arguments.`)
    .action(async (flags: { channel: ChannelId[]; emulator: boolean; explain: boolean; json: boolean; send: boolean }) => {
      setExitCode(await runDoctor({ channels: flags.channel, emulator: flags.emulator, explain: flags.explain, json: flags.json, send: flags.send }, io));
    });

  program
    .command('smoke')
    .description('run the scenario matrix per channel and write payload JSON, preview.html, PNGs and result.json')
    .addOption(channelFlag('which platform(s)'))
    .option('--send', 'send to the real chats from the environment instead of the emulators', false)
    .option('--out <dir>', 'output folder', 'smoke-artefacts')
    .option('--scenario <ids...>', 'only these scenarios')
    .option('--no-screenshots', 'do not take PNG screenshots')
    .action(async (flags: { channel: ChannelId[]; send: boolean; out: string; scenario?: string[]; screenshots: boolean }) => {
      setExitCode(await runSmoke({ channels: flags.channel, send: flags.send, out: flags.out, screenshots: flags.screenshots, scenarios: flags.scenario }, io));
    });

  program
    .command('plan')
    .description('budget arithmetic: runs that stay fully fresh, staleness at 2×/10×/100× load, runs a month under a quota')
    .addOption(channelFlag('which platform(s)'))
    .option('--tick-ms <ms>', 'tick of running tools (default: the channel\'s)', parsePositiveInteger)
    .option('--processes <n>', 'processes sharing one app\'s budget', parsePositiveInteger, 1)
    .option('--apps <n>', 'apps (bots) of the channel the cards are spread over, each with its own budget (appPool)', parsePositiveInteger, 1)
    .option('--runs <n>', 'runs with running tools to plan for: prints how many apps keep them fully fresh', parsePositiveInteger)
    .option('--run-minutes <n>', 'typical run length for the quota figures', parsePositiveInteger, 10)
    .option('--monthly-quota <calls>', 'platform calls a month (default: the platform\'s known quota)', parsePositiveInteger)
    .option('--run-call-cap <calls>', 'most calls one run may spend (stretches the tick)', parsePositiveInteger)
    .option('--json', 'print the figures as JSON', false)
    .action(async (flags: { channel: ChannelId[]; tickMs?: number; processes: number; apps: number; runs?: number; runMinutes: number; monthlyQuota?: number; runCallCap?: number; json: boolean }) => {
      setExitCode(await runPlan({ channels: flags.channel, tickMs: flags.tickMs, processes: flags.processes, apps: flags.apps, runs: flags.runs, runMinutes: flags.runMinutes, monthlyQuota: flags.monthlyQuota, runCallCap: flags.runCallCap, json: flags.json }, io));
    });

  program
    .command('new-channel')
    .description('write a channel plugin package: defineChannel, renderer, transport, a fake platform, the conformance suite, a CLI config')
    .argument('<name>', 'the channel id: lowercase words joined by dashes, e.g. acme-chat')
    .option('--dir <path>', 'where to write it (default ./progresscard-plugin-<name>)')
    .option('--label <text>', 'human name of the platform (default: the name in title case)')
    .action(async (name: string, flags: { dir?: string; label?: string }) => {
      setExitCode(await runNewChannel({ name, ...(flags.dir ? { dir: flags.dir } : {}), ...(flags.label ? { label: flags.label } : {}) }, io));
    });

  return program;
}
