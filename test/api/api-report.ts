import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The API report: every runtime export of each publishable package's entry points (the root and
 * any subpath in its `exports` map), one `name: kind` line each, committed under `api/` so an
 * accidental export or removal fails CI. Types are not listed (they have no runtime value);
 * TypeDoc (`npm run docs`) documents them.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const API_DIR = `${REPO_ROOT}api/`;
export const UPDATE_COMMAND = 'npm run api:update';

/** One entry point of a published package, e.g. `@progresscard/core` or `@progresscard/x/sub`. */
export interface EntryPoint {
  readonly packageName: string;
  /** `.` or `./sub` as written in the `exports` map. */
  readonly subpath: string;
  /** What a consumer imports. */
  readonly specifier: string;
  /** `api/<file>`, e.g. `core.api.txt`, `core.sub.api.txt`. */
  readonly reportFile: string;
}

interface PackageJson {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

/** Every entry point of every non-private workspace package under `packages/` and `plugins/`. */
export function publishedEntryPoints(): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const parent of ['packages', 'plugins']) {
    for (const dir of readdirSync(`${REPO_ROOT}${parent}`).sort()) {
      const file = `${REPO_ROOT}${parent}/${dir}/package.json`;
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
      if (pkg.private) continue;
      const short = pkg.name.replace(/^@progresscard\//, '');
      for (const subpath of Object.keys(pkg.exports ?? { '.': null })) {
        if (subpath.endsWith('.json')) continue;
        const suffix = subpath === '.' ? '' : subpath.slice(1);
        entries.push({
          packageName: pkg.name,
          subpath,
          specifier: `${pkg.name}${suffix}`,
          reportFile: `${short}${suffix.replaceAll('/', '.')}.api.txt`,
        });
      }
    }
  }
  return entries;
}

/** `class`, `function`, `object`, `string`, `number`, … of one exported value. */
function exportKind(value: unknown): string {
  if (typeof value === 'function') return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The report text of one module namespace: a header, then `name: kind` lines sorted by name. */
function apiReport(entry: EntryPoint, namespace: Record<string, unknown>): string {
  const lines = Object.keys(namespace)
    .filter((name) => name !== 'default' || namespace.default !== undefined)
    .sort()
    .map((name) => `${name}: ${exportKind(namespace[name])}`);
  return [
    `# ${entry.specifier}: runtime exports (generated; after a deliberate API change run \`${UPDATE_COMMAND}\`)`,
    ...lines,
    '',
  ].join('\n');
}

/** Imports an entry point (in the repo, through the "source" condition) and renders its report. */
export async function currentReport(entry: EntryPoint): Promise<string> {
  const namespace = (await import(entry.specifier)) as Record<string, unknown>;
  return apiReport(entry, namespace);
}
