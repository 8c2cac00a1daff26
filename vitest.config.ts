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
 * Workers of the e2e project: twice the cores. Its files mostly wait (on real timers, loopback HTTP, child
 * processes), so one worker per core leaves the CPU idle: on a 2-core machine one worker ran the project in
 * 20 minutes with 11 minutes of CPU. `PROGRESSCARD_E2E_WORKERS` overrides it.
 */
const E2E_WORKERS = Number(process.env.PROGRESSCARD_E2E_WORKERS) || Math.max(2, availableParallelism() * 2);

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
          // Projects with different worker counts run one after the other, in this order.
          sequence: { groupOrder: 0 },
          maxWorkers: availableParallelism(),
          exclude: ['**/node_modules/**', '**/*.e2e.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        // Real time, loopback HTTP (emulators, webhook servers), child processes, the browser.
        // isolate: false, as in the unit project: on the 2-core machine under the same load, the isolated
        // project spent 597 s of CPU (import 3 330 s summed over workers) against 248 s shared. The files
        // mock no modules; the one that stubs variables and spies on the console restores them after each test.
        test: { name: 'e2e', isolate: false, include: E2E_TESTS, exclude: ['**/node_modules/**', ...RELEASE_TESTS], testTimeout: 20000, maxWorkers: E2E_WORKERS, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'release', include: RELEASE_TESTS, exclude: ['**/node_modules/**'], testTimeout: 20000, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
