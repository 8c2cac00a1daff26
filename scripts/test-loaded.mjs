#!/usr/bin/env node
// `npm run test:loaded`: the whole test suite next to a CPU hog that keeps every core busy, as on a
// machine shared with other work. Passes the arguments on to `vitest run` (e.g. `-- --project unit`).
// Prints the suite's wall time; exits with the suite's exit code. The hog runs in worker threads of
// this process and stops with it. Without arguments it runs what `npm test` runs.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const hogs = Number(process.env.PROGRESSCARD_HOG_THREADS ?? availableParallelism());
const workers = Array.from({ length: hogs }, () => new Worker('for (;;) Math.sqrt(Math.random());', { eval: true }));
for (const worker of workers) worker.unref();
console.log(`test:loaded: ${hogs} busy thread(s) next to the suite`);

const startedAt = Date.now();
// Without arguments, what `npm test` runs: the unit and e2e projects.
const args = process.argv.length > 2 ? process.argv.slice(2) : ['--project', 'unit', '--project', 'e2e'];
const suite = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], { stdio: 'inherit' });
suite.on('exit', async (code, signal) => {
  await Promise.all(workers.map((worker) => worker.terminate()));
  console.log(`test:loaded: suite finished in ${((Date.now() - startedAt) / 1000).toFixed(0)} s (${signal ?? `exit ${code}`}) next to ${hogs} busy thread(s)`);
  process.exit(code ?? 1);
});
