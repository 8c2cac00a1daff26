import { defineConfig } from 'vitest/config';

// Workspace packages export `./src/index.ts` under the custom "source" condition,
// so tests run against sources without a build step.
const conditions = ['source', 'module', 'node', 'import', 'default'];

/** Every test file of the monorepo. */
const ALL_TESTS = ['packages/*/test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/** Tests that need real time, loopback HTTP, a child process or a browser: named `*.e2e.test.ts`. */
const E2E_TESTS = ['**/*.e2e.test.ts'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // Some dependencies (eventsource-parser, under the AI SDK) also export TypeScript under "source":
    // let vite transform them instead of handing .ts files to Node.
    server: { deps: { inline: ['ai', /@ai-sdk\//, 'eventsource-parser'] } },
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
