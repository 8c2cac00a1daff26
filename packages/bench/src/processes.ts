/**
 * `npm run bench:processes -w packages/bench -- [--processes 4] [--n 50] [--limit-s 150] [--seed 1]`:
 * several real processes share one app's budget in one real Redis (Debian's `redis-server` on a free
 * loopback port, no persistence), each running N synthetic runs through the real Feishu plugin over
 * loopback HTTP to one Feishu emulator (a process of its own, enforcing the documented limits across
 * all of them), on real time. Prints each process's staleness, finals and rejections, and the
 * event-loop delay of each. Asserts nothing.
 */
import { spawn, fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { startFeishuEmulatorProcess } from './http-platform.js';
import { seconds } from './report.js';
import type { PointResult } from './run-point.js';

const program = new Command('npm run bench:processes --')
  .addOption(new Option('--processes <n>', 'processes sharing the budget').default(4).argParser(Number))
  .addOption(new Option('--n <n>', 'runs per process').default(50).argParser(Number))
  .addOption(new Option('--limit-s <s>', 'bound of the point, seconds').default(150).argParser(Number))
  .addOption(new Option('--seed <n>', 'seed of process 1 (process i uses seed + i - 1)').default(1).argParser(Number))
  .allowExcessArguments(false);
program.parse(process.argv);
const o = program.opts<{ processes: number; n: number; limitS: number; seed: number }>();
for (const [name, value] of Object.entries(o)) {
  if (!Number.isSafeInteger(value) || value <= 0) program.error(`error: --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a positive integer, got ${value}`);
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

const port = await freePort();
const redis = spawn(process.env.REDIS_SERVER ?? 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
redis.once('error', (error) => {
  console.error(`cannot start redis-server (${error.message}): install it with \`apt-get install -y redis-server\``);
  process.exit(1);
});
await new Promise((resolve) => setTimeout(resolve, 500));
const emulator = await startFeishuEmulatorProcess();
const worker = fileURLToPath(new URL('./process-worker.ts', import.meta.url));
try {
  const results = await Promise.all(
    Array.from({ length: o.processes }, async (_, index) => {
      const env = { ...process.env, BENCH_WORKER: JSON.stringify({ index, n: o.n, seed: o.seed + index, limitMs: o.limitS * 1000, redisUrl: `redis://127.0.0.1:${port}`, emulator: { baseUrl: emulator.baseUrl, appId: emulator.appId, appSecret: emulator.appSecret } }) };
      const child = fork(worker, [], { execArgv: process.execArgv, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) throw new Error(`process ${index + 1} exited with code ${code} without a result`);
      return JSON.parse(line) as PointResult;
    }),
  );
  console.log(`\n${o.processes} processes × N = ${o.n} synthetic runs, one Feishu app, budgets and cards in one Redis, real time over loopback HTTP; seeds ${o.seed}–${o.seed + o.processes - 1}\n`);
  console.log('| process | calls | rejections | tool p50 / p99 | first card p99 | final p50 / p99 | finals missing | event-loop delay p99 / max |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [i, r] of results.entries()) {
    const rejected = Object.entries(r.rejections).map(([code, count]) => `${code}×${count}`).join(' ') || '0';
    const loop = r.eventLoopDelayMs ? `${r.eventLoopDelayMs.p99.toFixed(0)} ms / ${r.eventLoopDelayMs.max.toFixed(0)} ms` : '–';
    console.log(`| ${i + 1} | ${r.calls} | ${rejected} | ${seconds(r.staleness.tool.p50)} / ${seconds(r.staleness.tool.p99)} | ${seconds(r.staleness.firstCard.p99)} | ${seconds(r.final.p50)} / ${seconds(r.final.p99)} | ${r.finalsMissing} | ${loop} |`);
  }
  console.log(`\nload average at the end: ${results.map((r) => r.loadAverage?.toFixed(1)).join(', ')}`);
} finally {
  await emulator.close();
  redis.kill('SIGTERM');
}
