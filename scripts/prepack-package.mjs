#!/usr/bin/env node
// `prepack` of every publishable package: a `dist/` that holds exactly what this package's sources
// build to (and its project references built first), so a tarball never ships stale files or misses
// its build output. Runs with the package folder as the working directory (npm does that for
// lifecycle scripts).
//
// dist/ is brought up to date in place, never deleted first: the workspace stays usable while a
// pack runs (`npx progresscard`, tests that start the built CLI, and the other packages importing
// this one's dist/ all read it meanwhile). So: an incremental `tsc -b`; a full build of this
// project when an output is missing (tsc -b trusts its tsconfig.tsbuildinfo and does not notice a
// deleted output); then the outputs of sources that no longer exist are removed.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

if (!existsSync('tsconfig.json')) {
  console.error(`prepack-package: no tsconfig.json in ${process.cwd()}; run it from a package folder`);
  process.exit(2);
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = () => execFileSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { stdio: 'inherit' });

/** Every file under `folder`, as paths relative to it (`/`-separated). */
const filesUnder = (folder) =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split('\\').join('/'))
    : [];

// Each package's tsconfig builds src/**/*.ts (rootDir src) to dist/ with declarations and maps.
const OUTPUTS = ['.js', '.js.map', '.d.ts', '.d.ts.map'];
const modules = filesUnder('src')
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => file.slice(0, -'.ts'.length));
const expected = new Set(modules.flatMap((module) => OUTPUTS.map((extension) => `${module}${extension}`)));
const missing = () => [...expected].filter((file) => !existsSync(join('dist', file)));

build();
if (missing().length > 0) {
  // Outputs gone behind tsc's back: build this project again from its sources (its references
  // stay as they are), writing over the files in place.
  rmSync('tsconfig.tsbuildinfo', { force: true });
  build();
  const still = missing();
  if (still.length > 0) {
    console.error(`prepack-package: the build did not write ${still.map((file) => `dist/${file}`).join(', ')}`);
    process.exit(1);
  }
}
for (const file of filesUnder('dist')) {
  if (!expected.has(file)) rmSync(join('dist', file));
}
// Folders the removed files leave empty, deepest first.
const folders = readdirSync('dist', { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(entry.parentPath, entry.name))
  .sort((a, b) => b.length - a.length);
for (const folder of folders) if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
