/**
 * Test order for `npm test`: the files that take longest start first, so the e2e project's workers do not
 * end on one long file started last. Vitest orders files by the durations of an earlier run when it has
 * one (`node_modules/.vite/vitest`); a fresh clone (CI, a newcomer) has none and runs files in glob order,
 * which puts the slowest (multi-process, real agent clients, the whole-matrix smoke, the browser) last.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Path fragments of the slowest files, slowest first (measured on the 2-core machine: 40–240 s each). */
const SLOW_FIRST = [
  'packages/adapters/test/real-clients/',
  'test/multi-process/cluster-clicks',
  'packages/cli/test/smoke.e2e',
  'test/e2e/preview.e2e',
  'test/multi-process/',
  'test/cli/demo.e2e',
  'plugins/slack/test/streams.e2e',
  'test/traces/',
  'plugins/discord/test/platform-faults',
  'packages/core/test/delivery/process-lifetime',
  'test/e2e/',
];

function rank(file: TestSpecification): number {
  const path = file.moduleId.replaceAll('\\', '/');
  const index = SLOW_FIRST.findIndex((fragment) => path.includes(fragment));
  return index === -1 ? SLOW_FIRST.length : index;
}

/** Vitest's own order (earlier failures and durations when known), the known-slow files moved to the front. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = await super.sort(files);
    return known.map((file, position) => ({ file, position })).sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position).map(({ file }) => file);
  }
}
