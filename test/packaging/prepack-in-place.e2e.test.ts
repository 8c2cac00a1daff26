import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `scripts/prepack-package.mjs`, every package's `prepack` (so `npm run packages:pack` and the
 * consumer test's `npm pack`): it brings `dist/` up to date in place, so the workspace stays usable
 * while packing (`npx progresscard` runs `packages/cli/dist/bin.js`). Checked on a two-file package
 * in a temp folder, built with the repo's TypeScript.
 */
const PREPACK = fileURLToPath(new URL('../../scripts/prepack-package.mjs', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'progresscard-prepack-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    declaration: true,
    declarationMap: true,
    sourceMap: true,
    composite: true,
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
}

/** Runs the prepack script in the package folder; resolves with the exit code and whether `dist/index.js` was ever missing meanwhile. */
function prepack(): Promise<{ code: number | null; stderr: string; distIndexMissing: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PREPACK], { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let distIndexMissing = false;
    const watch = setInterval(() => {
      if (!existsSync(join(folder, 'dist/index.js'))) distIndexMissing = true;
    }, 5);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      resolve({ code, stderr, distIndexMissing });
    });
  });
}

describe('prepack of a package', () => {
  it('updates dist/ in place: outputs stay readable throughout, a lost output is rebuilt, outputs of deleted sources go', async () => {
    write({
      'package.json': JSON.stringify({ name: 'prepack-fixture', type: 'module' }),
      'tsconfig.json': JSON.stringify(TSCONFIG),
      'src/index.ts': "export { greeting } from './parts/greeting.js';\n",
      'src/parts/greeting.ts': "export const greeting = 'hello';\n",
    });
    const first = await prepack();
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(folder, 'dist/parts/greeting.js'), 'utf8')).toContain("'hello'");

    const distBefore = statSync(join(folder, 'dist')).ino;
    write({
      'src/parts/greeting.ts': "export const greeting = 'hello again';\n",
      // left over from a source that was deleted since the last build
      'dist/old/removed.js': 'export {};\n',
      'dist/old/removed.d.ts': 'export {};\n',
    });
    // an output deleted by hand: tsc -b alone would trust its tsbuildinfo and not write it again
    rmSync(join(folder, 'dist/index.d.ts'));

    const second = await prepack();
    expect(second.code, second.stderr).toBe(0);
    expect(second.distIndexMissing).toBe(false);
    expect(statSync(join(folder, 'dist')).ino).toBe(distBefore);
    expect(readFileSync(join(folder, 'dist/parts/greeting.js'), 'utf8')).toContain("'hello again'");
    expect(existsSync(join(folder, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(folder, 'dist/old'))).toBe(false);
  }, 120_000);
});
