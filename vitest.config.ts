import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/slow-first-sequencer.js';

// Workspace packages export `./src/index.ts` under the custom "source" condition,
// so tests run against sources without a build step.
const conditions = ['source', 'module', 'node', 'import', 'default'];

/** Every test file of the monorepo. */
const ALL_TESTS = ['packages/*/test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Tests that need real time, loopback HTTP, a child process or a browser: named `*.e2e.test.ts`, in the
 * same folders as the others (so a plugin package written by `progresscard new-channel` into the
 * checkout is not run as this repo's test).
 */
const E2E_TESTS = ALL_TESTS.map((glob) => glob.replace(/\*\.test\.ts$/, '*.e2e.test.ts'));

/**
 * The release checks: pack every package and install the tarballs into projects outside the repo, and
 * build and test a plugin package written by `progresscard new-channel`. Together about 210 s of CPU (npm
 * pack brings each package's build up to date, tsc compiles the consumer projects): a third of the e2e
 * project's CPU. `npm run test:release` runs them; CI (`.ci/run`) runs them after `npm test`.
 */
const RELEASE_TESTS = ['test/consumer/**/*.e2e.test.ts', 'packages/cli/test/new-channel.e2e.test.ts'];

/**
 * Workers of `npm test`: three per core (at most 16), shared by the unit and e2e projects. The e2e files mostly
 * wait (on real timers, loopback HTTP, child processes), so workers per core leave the CPU idle: on the
 * 2-core machine, idle, 4 workers ran `npm test` in 321 s using 46 % of the CPU, 6 workers in 262 s using
 * 63 %. `PROGRESSCARD_TEST_WORKERS` overrides it.
 */
const WORKERS = Number(process.env.PROGRESSCARD_TEST_WORKERS) || Math.min(16, Math.max(2, availableParallelism() * 3));

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    // Some dependencies (eventsource-parser, under the AI SDK) also export TypeScript under "source":
    // let vite transform them instead of handing .ts files to Node.
    server: { deps: { inline: ['ai', /@ai-sdk\//, 'eventsource-parser'] } },
    projects: [
      {
        extends: true,
        // Everything that runs on fake time (or needs no time at all): fast and deterministic.
        // isolate: false: the files share their workers' module cache. Importing the workspaces anew for each
        // of ~150 files cost 80 % of this project's CPU (import 659 s against 167 s of tests, summed over
        // workers, on the 2-core CI machine); these files mock no modules, and each restores the timers and
        // process listeners it touches.
        test: {
          name: 'unit',
          include: ALL_TESTS,
          // One group with the e2e project (same worker count): the unit files fill the CPU the e2e files leave
          // idle while they wait, instead of running first on their own (40 s of the 5 minutes).
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          exclude: ['**/node_modules/**', '**/*.e2e.test.ts'],
          // A guard against a hung test, not a deadline: the trace readers' tests parse megabytes of recorded
          // sessions on the CPU (1–3 s idle) and passed the 5 s default at load 20 on the 2-core machine.
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        extends: true,
        // Real time, loopback HTTP (emulators, webhook servers), child processes, the browser.
        // isolate: false, as in the unit project: on the 2-core machine under the same load, the isolated
        // project spent 597 s of CPU (import 3 330 s summed over workers) against 248 s shared. The files
        // mock no modules; the one that stubs variables and spies on the console restores them after each test.
        // 60 s before a test counts as hung: several wait out real late-apply windows and retries (14–19 s
        // idle, e.g. F17 on Telegram and Discord, the Feishu reaction moved to a fresh message), and one
        // timed out at 20 s next to the CPU hog of `npm run test:loaded`.
        test: { name: 'e2e', isolate: false, include: E2E_TESTS, exclude: ['**/node_modules/**', ...RELEASE_TESTS], testTimeout: 60_000, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'release', include: RELEASE_TESTS, exclude: ['**/node_modules/**'], testTimeout: 20000, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
