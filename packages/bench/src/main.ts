/**
 * `npm run bench`: progresscard against p-throttle as its budget and a naive design (issue 13, 31)
 * at N concurrent runs (default 1, 50, 500, 5000), every channel, synthetic runs and replays of the
 * bundled real traces, on simulated time against an in-process model of the platforms' documented
 * limits (the same sliding windows the emulators enforce), each seed given (default 1, 2, 3).
 * Deterministic for a seed up to the order of promise callbacks. `--real-time` runs the real Feishu
 * plugin over HTTP against the emulator; `--idle` puts real-time points beside their simulated
 * figures (idle-check.ts). Prints a table per channel and workload (median seed,
 * spread over seeds); writes results/latest.json and results/staleness.svg. Asserts nothing.
 *
 * Options: `npm run bench -- --help` (parsed in options.ts). The default `--out` is results/, which
 * a run overwrites.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startFeishuEmulatorProcess } from './http-platform.js';
import { idleTable, machineNote, runIdleCheck } from './idle-check.js';
import { parseBenchOptions } from './options.js';
import { README_POINTS, currentCommit, writeReadmeTables } from './readme-tables.js';
import { markdownTables, seconds, stalenessPlot } from './report.js';
import { medianOverSeeds } from './seeds.js';
import { MULTI_APP_CHANNELS, runPoint, type PointResult } from './run-point.js';
import { VirtualTime } from './virtual-time.js';
import { ScheduleTrace } from './schedule-trace.js';
import { runsPerChat, syntheticRuns, traceRuns, traceScripts } from './workload.js';

const { apps: appCounts, ns, seeds, channels, workloads, designs, realTime, transport, limitMs, outDir, nGiven, idle, trace, readme } = parseBenchOptions(process.argv);

if (idle) {
  mkdirSync(outDir, { recursive: true });
  const points = await runIdleCheck(channels as ('feishu' | 'dingtalk')[], ns, seeds[0]!, limitMs, trace ? outDir : undefined);
  console.log(`\nReal time against simulated time (seed ${seeds[0]}); ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}. ${machineNote()}\n`);
  console.log(idleTable(points));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'idle-check.json'), `${JSON.stringify({ date: new Date().toISOString(), loadAverage: loadavg(), points }, null, 2)}\n`);
  console.log(`wrote ${join(outDir, 'idle-check.json')}`);
  process.exit(0);
}

const realImmediate = setImmediate;
// Read before the run writes its results (which would mark the tree changed).
const commitAtStart = readme ? currentCommit() : '';

const scripts = workloads.includes('traces') ? await traceScripts() : [];
const results: PointResult[] = [];
const started = Date.now();
// What runs: the points given, or the README's (each channel with its own N).
const plans = readme ? README_POINTS.flatMap((group) => group.channels.map((channel) => ({ channel, ns: group.ns }))) : channels.map((channel) => ({ channel, ns }));
for (const workload of workloads) {
  for (const { channel, ns } of plans) {
    // Each N with each app count (several apps: Feishu and DingTalk on simulated time).
    for (const [n, apps] of ns.flatMap((n) => appCounts.map((apps) => [n, apps] as const))) {
      if (apps > 1 && (realTime || !MULTI_APP_CHANNELS.includes(channel))) continue;
      for (const seed of seeds) {
        // The traces at N = 5000, and N = 5000 of the channels added later, take minutes of CPU: only when asked for with --n.
        if ((workload === 'traces' || (channel !== 'feishu' && channel !== 'dingtalk')) && n > 500 && !nGiven) continue;
        const runs = workload === 'traces' ? traceRuns(n, seed, scripts, runsPerChat(channel)) : syntheticRuns(n, seed, runsPerChat(channel));
        let bound: Pick<PointResult, 'boundMs' | 'productBoundMs' | 'appBoundMs'> | undefined;
        for (const design of designs) {
          // A fresh emulator per point: no rate-limit window carries one point's calls into the next.
          const emulator = transport === 'http' ? await startFeishuEmulatorProcess() : undefined;
          const virtual = realTime ? undefined : new VirtualTime(1_800_000_000_000);
          virtual?.install();
          // --trace: where tool changes waited (the progresscard design's synthetic runs, which the trace recognises).
          const scheduleTrace = trace && design === 'progresscard' && workload === 'synthetic' ? new ScheduleTrace() : undefined;
          try {
            const result = await runPoint(design, channel, workload, runs, seed, { virtual, realImmediate, limitMs, ...(emulator ? { emulator } : {}), ...(scheduleTrace ? { trace: scheduleTrace } : {}) }, bound, apps);
            if (scheduleTrace) console.error(`${channel} N=${n}${apps > 1 ? ` apps=${apps}` : ''} seed=${seed}, where tool changes waited (ms):\n${scheduleTrace.summary().join('\n')}`);
            bound ??= result;
            results.push(result);
            const rejected = Object.values(result.rejections).reduce((a, b) => a + b, 0);
            console.error(
              `${workload} ${channel} N=${n}${apps > 1 ? ` apps=${apps}` : ''} seed=${seed} ${design}: ${result.calls} calls, ${rejected} rejected, tool p99 ${seconds(result.staleness.tool.p99)}, final p99 ${seconds(result.final.p99)}, cpu ${(result.cpuMs / 1000).toFixed(1)} s${result.eventLoopDelayMs ? `, event-loop delay p99 ${result.eventLoopDelayMs.p99.toFixed(0)} ms, load ${result.loadAverage?.toFixed(1)}` : ''}`,
            );
          } finally {
            virtual?.uninstall();
            await emulator?.close();
          }
        }
      }
    }
  }
}

const summary = medianOverSeeds(results);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
const date = new Date().toISOString();
console.log(`\n${realTime ? (transport === 'http' ? 'Real time (the real Feishu plugin over loopback HTTP to the Feishu emulator in a child process)' : 'Real time (in-process platform model, real timers)') : 'Simulated time'}; ${machine}; seeds ${seeds.join(',')}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
console.log(markdownTables(summary));
mkdirSync(outDir, { recursive: true });
const name = realTime ? 'real-time' : 'latest';
writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify({ machine, date, realTime, seeds, results }, null, 2)}\n`);
if (!realTime) writeFileSync(join(outDir, 'staleness.svg'), `${stalenessPlot(summary, 'synthetic', `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ${date.slice(0, 10)}, seeds ${seeds.join(',')}`)}\n`);
console.log(`wrote ${join(outDir, `${name}.json`)}${realTime ? '' : ` and ${join(outDir, 'staleness.svg')}`}`);
if (readme) {
  const commit = commitAtStart;
  writeReadmeTables(
    [
      `Measured ${date.slice(0, 10)} at commit ${commit} with seeds ${seeds.join(', ')} on ${machine}; synthetic workload on simulated time (\`npm run bench -- --readme\`, ${((Date.now() - started) / 1000).toFixed(0)} s; simulated points do not depend on the machine's load). The bound of a seed is the progresscard run's, shared by the other designs of that seed (a column shows its median seed's).`,
      '',
      '![Tool staleness p99 against N](packages/bench/results/staleness.svg)',
      '',
      markdownTables(summary).replaceAll(/^#### (.+) · synthetic$/gm, '#### $1 · synthetic (simulated)'),
    ].join('\n'),
  );
  console.log(`wrote the bench tables into README.md (commit ${commit})`);
}
