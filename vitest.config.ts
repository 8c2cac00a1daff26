import { defineConfig } from 'vitest/config';

// Workspace packages export `./src/index.ts` under the custom "source" condition,
// so tests run against sources without a build step.
const conditions = ['source', 'module', 'node', 'import', 'default'];

/** Every test file of the monorepo. */
const ALL_TESTS = ['packages/*/test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Tests that need real time, loopback HTTP, a child process or a browser. New ones are named
 * `*.e2e.test.ts`. The files listed after the pattern predate that convention (packages/core and
 * plugins/ are being moved by the renovation); rename them to `*.e2e.test.ts` and drop them here.
 */
const E2E_TESTS = [
  '**/*.e2e.test.ts',
  'packages/core/test/process-lifetime.test.ts',
  'plugins/feishu/test/e2e.test.ts',
  'plugins/feishu/test/cases.test.ts',
  'plugins/feishu/test/classify.test.ts',
  'plugins/feishu/test/follow-ups.test.ts',
  'plugins/feishu/test/lost-send-answer.test.ts',
  'plugins/dingtalk/test/e2e.test.ts',
  'plugins/dingtalk/test/cases.test.ts',
  'plugins/dingtalk/test/transport.test.ts',
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      {
        extends: true,
        // Everything that runs on fake time (or needs no time at all): fast and deterministic.
        test: { name: 'unit', include: ALL_TESTS, exclude: ['**/node_modules/**', ...E2E_TESTS] },
      },
      {
        extends: true,
        // Real time, loopback HTTP (emulators, webhook servers), child processes, the browser.
        test: { name: 'e2e', include: E2E_TESTS, exclude: ['**/node_modules/**'], testTimeout: 20000 },
      },
    ],
  },
});
