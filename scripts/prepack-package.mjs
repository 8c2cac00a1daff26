#!/usr/bin/env node
// `prepack` of every publishable package: a clean `dist/` built from this package's sources
// (and its project references), so a tarball never ships stale files or misses its build output.
// Runs with the package folder as the working directory (npm does that for lifecycle scripts).
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

if (!existsSync('tsconfig.json')) {
  console.error(`prepack-package: no tsconfig.json in ${process.cwd()}; run it from a package folder`);
  process.exit(2);
}
rmSync('dist', { recursive: true, force: true });
rmSync('tsconfig.tsbuildinfo', { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { stdio: 'inherit' });
