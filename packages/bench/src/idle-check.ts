/**
 * `npm run bench -- --idle`: the check issue 31 asks for on an idle machine — each real-time point
 * beside the same point on simulated time (same runs, same seed, progresscard), with the ratio of
 * every headline figure and the event-loop delay and load average of the real-time run. Feishu runs
 * the real plugin over loopback HTTP to the Feishu emulator in a child process; DingTalk the
 * in-process platform model on real timers (the bench has no DingTalk emulator process yet).
 * Meant for a quiet machine: under load the real-time figures measure the machine (the printout
 * says so when the load average exceeds the cores).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startFeishuEmulatorProcess } from './http-platform.js';
import { seconds } from './report.js';
import { runPoint, type PointResult } from './run-point.js';
import { ScheduleTrace } from './schedule-trace.js';
import { VirtualTime } from './virtual-time.js';
import { syntheticRuns } from './workload.js';

/** Real-time figures count as matching the simulation within this factor (issue 31's target). */
const REAL_TIME_TOLERANCE = 1.5;

/** Below this many ms a real-time figure counts as matching whatever the ratio (timer and loopback noise). */
const NOISE_FLOOR_MS = 50;

/** One point of the check: its simulated and real-time results. */
export interface IdlePoint {
  readonly channel: 'feishu' | 'dingtalk';
  readonly n: number;
  readonly simulated: PointResult;
  readonly realTime: PointResult;
}

const FIGURES: readonly { readonly label: string; readonly of: (r: PointResult) => number }[] = [
  { label: 'tool staleness p99', of: (r) => r.staleness.tool.p99 },
  { label: 'first card p99', of: (r) => r.staleness.firstCard.p99 },
  { label: 'answer text p99', of: (r) => r.staleness.answer.p99 },
  { label: 'final p99', of: (r) => r.final.p99 },
  { label: 'tool staleness p50', of: (r) => r.staleness.tool.p50 },
];

/** `real ÷ simulated` and whether it is within {@link REAL_TIME_TOLERANCE} (or both under the noise floor). */
function verdict(simulated: number, real: number): { ratio: string; ok: boolean } {
  if (!Number.isFinite(simulated) || !Number.isFinite(real)) return { ratio: '–', ok: false };
  const ratio = simulated > 0 ? real / simulated : Number.POSITIVE_INFINITY;
  const ok = real <= NOISE_FLOOR_MS || ratio <= REAL_TIME_TOLERANCE;
  return { ratio: Number.isFinite(ratio) ? ratio.toFixed(2) : '∞', ok };
}

/**
 * The Markdown table of the check: one row per point and figure, each ratio with the real-time
 * run's event-loop delay p99 and load average beside it (a ratio over a busy loop measures the machine).
 */
export function idleTable(points: readonly IdlePoint[]): string {
  const out = [
    `| point | figure | simulated | real time | real ÷ simulated | within ${REAL_TIME_TOLERANCE} × | event-loop delay p99, load |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const { channel, n, simulated, realTime } of points) {
    const point = `${channel} N = ${n}`;
    const loop = realTime.eventLoopDelayMs;
    const machine = `${loop ? `${loop.p99.toFixed(0)} ms` : '–'}, ${realTime.loadAverage?.toFixed(1) ?? '–'}`;
    for (const figure of FIGURES) {
      const { ratio, ok } = verdict(figure.of(simulated), figure.of(realTime));
      out.push(`| ${point} | ${figure.label} | ${seconds(figure.of(simulated))} | ${seconds(figure.of(realTime))} | ${ratio} | ${ok ? 'yes' : 'no'} | ${machine} |`);
    }
    const rejected = (r: PointResult) => Object.values(r.rejections).reduce((a, b) => a + b, 0);
    out.push(`| ${point} | rejections, finals missing | ${rejected(simulated)}, ${simulated.finalsMissing} | ${rejected(realTime)}, ${realTime.finalsMissing} | | | |`);
    out.push(
      `| ${point} | event-loop delay p50 / p99 / max, load, transport | | ${loop ? `${loop.p50.toFixed(0)} / ${loop.p99.toFixed(0)} / ${loop.max.toFixed(0)} ms` : '–'}, load ${realTime.loadAverage?.toFixed(1) ?? '–'}, ${realTime.transport ?? '–'} | | | |`,
    );
  }
  return out.join('\n');
}

/**
 * Runs each channel at each N once on simulated time and once in real time (bounded by `limitMs`),
 * printing progress on stderr; resolves with the points.
 */
export async function runIdleCheck(channels: readonly ('feishu' | 'dingtalk')[], ns: readonly number[], seed: number, limitMs: number, traceDir?: string): Promise<IdlePoint[]> {
  const points: IdlePoint[] = [];
  for (const channel of channels) {
    for (const n of ns) {
      const runs = syntheticRuns(n, seed);
      const traces = traceDir ? { simulated: new ScheduleTrace(), realTime: new ScheduleTrace() } : undefined;
      const virtual = new VirtualTime(1_800_000_000_000);
      virtual.install();
      let simulated: PointResult;
      try {
        simulated = await runPoint('progresscard', channel, 'synthetic', runs, seed, { virtual, realImmediate: setImmediate, limitMs: 30 * 60 * 1000, ...(traces ? { trace: traces.simulated } : {}) });
      } finally {
        virtual.uninstall();
      }
      const emulator = channel === 'feishu' ? await startFeishuEmulatorProcess() : undefined;
      let realTime: PointResult;
      try {
        realTime = await runPoint('progresscard', channel, 'synthetic', runs, seed, { realImmediate: setImmediate, limitMs, ...(emulator ? { emulator } : {}), ...(traces ? { trace: traces.realTime } : {}) });
      } finally {
        await emulator?.close();
      }
      console.error(
        `${channel} N=${n}: tool p99 ${seconds(simulated.staleness.tool.p99)} simulated, ${seconds(realTime.staleness.tool.p99)} real time; event-loop delay p99 ${realTime.eventLoopDelayMs?.p99.toFixed(0)} ms, load ${realTime.loadAverage?.toFixed(1)}`,
      );
      if (traces) {
        console.error(`${channel} N=${n}, where tool changes waited (ms), simulated:\n${traces.simulated.summary().join('\n')}`);
        console.error(`${channel} N=${n}, real time:\n${traces.realTime.summary().join('\n')}`);
        if (traceDir) writeFileSync(join(traceDir, `trace-${channel}-${n}.json`), `${JSON.stringify({ simulated: traces.simulated.tools, realTime: traces.realTime.tools, decisions: { simulated: traces.simulated.decisions, realTime: traces.realTime.decisions } })}\n`);
      }
      points.push({ channel, n, simulated, realTime });
    }
  }
  return points;
}

/** A line saying whether the machine was idle enough for the check to mean anything. */
export function machineNote(): string {
  const load = loadavg()[0]!;
  const cores = cpus().length;
  return load > cores * 0.5
    ? `Load average ${load.toFixed(1)} on ${cores} cores: the machine is busy, the real-time figures measure it, not the pump (run again on an idle machine).`
    : `Load average ${load.toFixed(1)} on ${cores} cores.`;
}
