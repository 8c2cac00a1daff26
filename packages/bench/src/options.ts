import { Command, InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNEL_NAMES, type ChannelName } from './gates.js';
import { README_SEEDS } from './readme-tables.js';
import { DESIGNS, type Design } from './run-point.js';

/** What `npm run bench` runs, from its command line. */
export interface BenchOptions {
  /** Concurrent runs per point. */
  readonly ns: readonly number[];
  /** Apps (bots) per channel at each point (`appPool`, cards sticky per chat); default 1. */
  readonly apps: readonly number[];
  /** Seeds; tables show the median over them with the spread. */
  readonly seeds: readonly number[];
  readonly channels: readonly ChannelName[];
  readonly workloads: readonly ('synthetic' | 'traces')[];
  readonly designs: readonly Design[];
  /** Real timers instead of simulated time. */
  readonly realTime: boolean;
  /** With real time: through the real plugin over HTTP to the emulator (`http`, default), or the in-process platform model. */
  readonly transport: 'model' | 'http';
  /** Bound of one point, ms (real time: `--limit-s`; simulated: 30 minutes). */
  readonly limitMs: number;
  /** Folder the JSON (and, on simulated time, the SVG plot) are written to. */
  readonly outDir: string;
  /** True when `--n` was given (the traces at N > 500 run only then: minutes of CPU). */
  readonly nGiven: boolean;
  /** `--idle`: each real-time point beside its simulated figures (Feishu and DingTalk), for an idle machine. */
  readonly idle: boolean;
  /** `--trace`: where each tool change waited, leg by leg, per progresscard synthetic point (with `--idle`: in both runs of a point). */
  readonly trace: boolean;
  /** `--readme`: the README's points (readme-tables.ts), written into README.md between its markers. */
  readonly readme: boolean;
}

const DEFAULT_OUT = fileURLToPath(new URL('../results/', import.meta.url));
const CHANNELS = CHANNEL_NAMES;
const WORKLOADS = ['synthetic', 'traces'] as const;

/** A comma-separated list whose items each pass `item`. */
function listOf<T>(name: string, item: (value: string) => T) {
  return (value: string): T[] => {
    const items = value.split(',').filter(Boolean);
    if (items.length === 0) throw new InvalidArgumentError(`${name} must list at least one value, got ${JSON.stringify(value)}`);
    return items.map(item);
  };
}
const positiveInteger = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
};
const oneOf = <T extends string>(name: string, allowed: readonly T[]) => (value: string): T => {
  if (!(allowed as readonly string[]).includes(value)) throw new InvalidArgumentError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
};

/**
 * Parses the bench's command line (`argv` as `process.argv`). `--help` prints the options and exits 0;
 * a bad value prints an error naming the option and value and exits 1 (commander's behaviour).
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const program = new Command('npm run bench --')
    .description(
      'progresscard against a naive design and p-throttle on the platforms\' documented limits: staleness, calls, rejections.\n' +
        'Deterministic for a seed on simulated time. Prints a table per channel and workload.',
    )
    .addOption(new Option('--n <list>', 'concurrent runs per point, comma-separated (default 1,50,500,5000; real time 50,500)').argParser(listOf('--n', positiveInteger('--n'))))
    .addOption(new Option('--apps <list>', 'apps (bots) per channel, comma-separated, each with its own credentials and limits, cards sticky per chat (feishu, dingtalk; simulated time)').default([1], '1').argParser(listOf('--apps', positiveInteger('--apps'))))
    .addOption(new Option('--seeds <list>', 'seeds, comma-separated; tables show the median over seeds with the lowest–highest').default([1, 2, 3], '1,2,3').argParser(listOf('--seeds', positiveInteger('--seeds'))))
    .addOption(new Option('--seed <n>', 'one seed (same as --seeds <n>)').argParser(positiveInteger('--seed')))
    .addOption(new Option('--channels <list>', `channels, comma-separated: ${CHANNELS.join(', ')} (default all; real time feishu); discord-shifting: Discord changing its announced limits at 20 s and 50 s`).argParser(listOf('--channels', oneOf('--channels', CHANNELS))))
    .addOption(new Option('--workloads <list>', `workloads, comma-separated: ${WORKLOADS.join(', ')} (default both; real time synthetic)`).argParser(listOf('--workloads', oneOf('--workloads', WORKLOADS))))
    .addOption(new Option('--designs <list>', `designs, comma-separated: ${DESIGNS.join(', ')} (default all)`).argParser(listOf('--designs', oneOf('--designs', DESIGNS))))
    .option('--readme', 'regenerate the README\'s bench tables: the simulated synthetic points it shows (every channel and design, seeds 1,2,3), written between its markers and to packages/bench/results/; other options are ignored', false)
    .option('--idle', 'the idle-machine check: Feishu (real plugin over HTTP) and DingTalk (platform model) synthetic at --n (default 50,500), one seed (default 1), each real-time point beside its simulated figures with the ratio and event-loop delay; --limit-s bounds each real-time point (default 300)', false)
    .option('--trace', 'print where tool changes waited (push → render → call → acceptance), renders put back, arrival delays, how late slots were taken and the slots reserved by route and rank, per progresscard point of the synthetic workload (with --idle: its simulated and its real-time run)', false)
    .option('--real-time', 'real timers instead of simulated time (slower; each point bounded by --limit-s); prints event-loop delay per point', false)
    .addOption(new Option('--transport <kind>', 'with --real-time: http (the real Feishu plugin over loopback HTTP to the Feishu emulator in a child process) or model (the in-process platform model)').default('http').argParser(oneOf('--transport', ['http', 'model'] as const)))
    .addOption(new Option('--limit-s <seconds>', 'with --real-time: bound of each point in seconds (default 60; --idle 300)').argParser(positiveInteger('--limit-s')))
    .addOption(new Option('--out <dir>', 'folder for latest.json / real-time.json and staleness.svg').default(DEFAULT_OUT, 'packages/bench/results/'))
    .addHelpText(
      'after',
      '\nWarning: the default --out is packages/bench/results/, the committed results the README shows;\n' +
        'a run overwrites them. Pass --out <dir> (e.g. --out /tmp/bench) to keep them.\n\n' +
        'Examples:\n  npm run bench -- --n 50 --channels feishu --workloads synthetic --out /tmp/bench\n  npm run bench -- --n 20000 --apps 1,10 --channels feishu --workloads synthetic --designs progresscard --seeds 1 --out /tmp/bench\n  npm run bench -- --real-time --limit-s 30 --out /tmp/bench\n  npm run bench -- --idle            (on an idle machine: real time against simulated, Feishu and DingTalk)',
    )
    .showHelpAfterError()
    .allowExcessArguments(false);
  program.parse(argv as string[]);
  const o = program.opts<{ apps: number[]; n?: number[]; seeds: number[]; seed?: number; channels?: ChannelName[]; workloads?: ('synthetic' | 'traces')[]; designs?: Design[]; realTime: boolean; idle: boolean; trace: boolean; readme: boolean; transport: 'model' | 'http'; limitS?: number; out: string }>();
  if (o.readme) {
    return { apps: [1], ns: [], seeds: README_SEEDS, channels: [], designs: DESIGNS, transport: 'model', workloads: ['synthetic'], realTime: false, limitMs: 30 * 60 * 1000, outDir: DEFAULT_OUT, nGiven: true, idle: false, trace: false, readme: true };
  }
  if (o.idle) {
    const given = o.channels ?? ['feishu', 'dingtalk'];
    if (given.some((c) => c !== 'feishu' && c !== 'dingtalk')) program.error(`error: --idle compares Feishu and DingTalk only; got --channels ${given.join(',')}`);
    return {
      apps: [1],
      ns: o.n ?? [50, 500],
      seeds: o.seed === undefined ? (program.getOptionValueSource('seeds') === 'default' ? [1] : o.seeds) : [o.seed],
      channels: given,
      designs: ['progresscard'],
      transport: 'http',
      workloads: ['synthetic'],
      realTime: true,
      limitMs: (o.limitS ?? 300) * 1000,
      outDir: outDir(o.out),
      nGiven: o.n !== undefined,
      idle: true,
      trace: o.trace,
      readme: false,
    };
  }
  const channels = o.channels ?? (o.realTime ? ['feishu'] : [...CHANNELS]);
  if (o.realTime && o.transport === 'http' && channels.some((c) => c !== 'feishu')) {
    program.error(`error: --real-time over HTTP runs the Feishu emulator only; got --channels ${channels.join(',')} (pass --transport model for the others)`);
  }
  return {
    ns: o.n ?? (o.realTime ? [50, 500] : [1, 50, 500, 5000]),
    apps: o.apps,
    seeds: o.seed === undefined ? o.seeds : [o.seed],
    channels,
    designs: o.designs ?? DESIGNS,
    transport: o.realTime ? o.transport : 'model',
    workloads: o.workloads ?? (o.realTime ? ['synthetic'] : ['synthetic', 'traces']),
    realTime: o.realTime,
    limitMs: o.realTime ? (o.limitS ?? 60) * 1000 : 30 * 60 * 1000,
    outDir: outDir(o.out),
    nGiven: o.n !== undefined,
    idle: false,
    trace: o.trace,
    readme: o.readme,
  };
}

/**
 * `--out` relative to the folder the user ran `npm run bench` in: npm runs the script in packages/bench and
 * names the caller's folder in `INIT_CWD`.
 */
function outDir(out: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), out);
}
