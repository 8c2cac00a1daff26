/**
 * `npm run bench`: progresscard against the naive design (issue 13) at N = 1, 50, 500, 5000
 * concurrent runs, Feishu and DingTalk, synthetic runs and replays of the bundled real traces, on
 * simulated time against an in-process model of the platforms' documented limits (the same
 * sliding windows the emulators enforce). Deterministic for a seed. Prints a table per channel and
 * workload; writes results/latest.json and results/staleness.svg. Asserts nothing.
 *
 * Flags: `--n=1,50` points, `--seeds=1,2,3`, `--channels=feishu`, `--workloads=synthetic`,
 * `--real-time` (real timers, each point bounded to `--limit-s` seconds, default 60; default points
 * N = 50 and 500 on Feishu, synthetic), `--out=dir`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChannelName } from './platform.js';
import { markdownTables, stalenessPlot } from './report.js';
import { runPoint, type Design, type PointResult } from './run-point.js';
import { VirtualTime } from './virtual-time.js';
import { syntheticRuns, traceRuns, traceScripts } from './workload.js';

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}
const list = (value: string | undefined, fallback: string) => (value ?? fallback).split(',').filter(Boolean);

const realTime = process.argv.includes('--real-time');
const ns = list(flag('n'), realTime ? '50,500' : '1,50,500,5000').map(Number);
const seeds = list(flag('seeds'), '1').map(Number);
const channels = list(flag('channels'), realTime ? 'feishu' : 'feishu,dingtalk') as ChannelName[];
const workloads = list(flag('workloads'), realTime ? 'synthetic' : 'synthetic,traces');
const limitMs = realTime ? Number(flag('limit-s') ?? 60) * 1000 : 30 * 60 * 1000;
const outDir = flag('out') ?? fileURLToPath(new URL('../results/', import.meta.url));
const designs: Design[] = ['progresscard', 'naive'];
const realImmediate = setImmediate;

const scripts = workloads.includes('traces') ? await traceScripts() : [];
const results: PointResult[] = [];
const started = Date.now();
for (const workload of workloads) {
  for (const channel of channels) {
    for (const n of ns) {
      for (const seed of seeds) {
        // The traces at N = 5000 take minutes of CPU: only when asked for with --n.
        if (workload === 'traces' && n > 500 && flag('n') === undefined) continue;
        const runs = workload === 'traces' ? traceRuns(n, seed, scripts) : syntheticRuns(n, seed);
        let boundMs: number | undefined;
        for (const design of designs) {
          const virtual = realTime ? undefined : new VirtualTime(1_800_000_000_000);
          virtual?.install();
          try {
            const result = await runPoint(design, channel, workload, runs, seed, { virtual, realImmediate, limitMs }, boundMs);
            boundMs ??= result.boundMs;
            results.push(result);
            const rejected = Object.values(result.rejections).reduce((a, b) => a + b, 0);
            console.error(
              `${workload} ${channel} N=${n} seed=${seed} ${design}: ${result.calls} calls, ${rejected} rejected, tool p99 ${(result.staleness.tool.p99 / 1000).toFixed(2)} s, final p99 ${(result.final.p99 / 1000).toFixed(2)} s, cpu ${(result.cpuMs / 1000).toFixed(1)} s`,
            );
          } finally {
            virtual?.uninstall();
          }
        }
      }
    }
  }
}

/** Medians over seeds: one result per workload, channel, N and design (the first seed's when one seed). */
function medianOverSeeds(all: readonly PointResult[]): PointResult[] {
  const groups = new Map<string, PointResult[]>();
  for (const r of all) groups.set(`${r.workload}|${r.channel}|${r.n}|${r.design}`, [...(groups.get(`${r.workload}|${r.channel}|${r.n}|${r.design}`) ?? []), r]);
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => a.staleness.tool.p99 - b.staleness.tool.p99);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}

const summary = medianOverSeeds(results);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
const date = new Date().toISOString();
console.log(`\n${realTime ? 'Real time (in-process platform model, real timers)' : 'Simulated time'}; ${machine}; seeds ${seeds.join(',')}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
console.log(markdownTables(summary));
mkdirSync(outDir, { recursive: true });
const name = realTime ? 'real-time' : 'latest';
writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify({ machine, date, realTime, seeds, results }, null, 2)}\n`);
if (!realTime) writeFileSync(join(outDir, 'staleness.svg'), `${stalenessPlot(summary, 'synthetic', `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ${date.slice(0, 10)}, seeds ${seeds.join(',')}`)}\n`);
console.log(`wrote ${join(outDir, `${name}.json`)}${realTime ? '' : ` and ${join(outDir, 'staleness.svg')}`}`);
