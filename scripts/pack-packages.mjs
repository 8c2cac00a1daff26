// `npm run packages:pack`: packs every published package into .artifacts/packages, one line of
// progress a package instead of npm's ~1 400 `npm notice` lines (npm runs each package's prepack,
// which brings its dist/ up to date in place, so `npx progresscard` keeps working meanwhile; the line
// says which package is being packed and how long each took).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';

// Every workspace of the root package.json whose package is not private (read, not listed, so a new
// plugin is packed the day it is added).
const root = JSON.parse(readFileSync('package.json', 'utf8'));
const WORKSPACES = root.workspaces
  .flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
          .sort()
      : [pattern],
  )
  .filter((folder) => existsSync(`${folder}/package.json`) && JSON.parse(readFileSync(`${folder}/package.json`, 'utf8')).private !== true);
const destination = '.artifacts/packages';
mkdirSync(destination, { recursive: true });
const started = Date.now();
for (const [index, workspace] of WORKSPACES.entries()) {
  const t0 = Date.now();
  process.stdout.write(`[${index + 1}/${WORKSPACES.length}] ${workspace} … `);
  const result = spawnSync('npm', ['pack', '-w', workspace, '--pack-destination', destination, '--loglevel=warn', '--json'], { encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write('failed\n');
    process.stderr.write(result.stdout + result.stderr);
    process.exit(result.status ?? 1);
  }
  const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')));
  process.stdout.write(`${packed.filename} (${Math.round(packed.size / 1024)} KiB, ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}
console.log(`packed ${WORKSPACES.length} packages into ${destination}/ in ${((Date.now() - started) / 1000).toFixed(0)} s`);
