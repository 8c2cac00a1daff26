import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The core's folders are layers: a file imports only from its own layer or an earlier one, so a
 * change to delivery never ripples into the card reducer, and the plugin contract stands without
 * the runtime. The entry points (`index.ts`, `plugin/index.ts`, `store/index.ts`, `testing/`) sit on top: they gather
 * names from every layer.
 */
const CORE_LAYERS = ['shared', 'events', 'card', 'plugin', 'interaction', 'delivery', 'runtime', 'compose.ts', 'entry'];
const ENTRY_POINTS = /^(index\.ts|plugin[\\/]index\.ts|store[\\/]index\.ts|testing[\\/])/;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative imports (value and type) of a file, as absolute `.ts` paths. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bfrom '(\.[^']+)'/g)].map((match) => resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts'));
}

/** Import cycles among the files under `dir`, each as its files relative to `dir` (Tarjan's strongly connected components). */
function importCycles(dir: string): string[][] {
  const graph = new Map(sourceFiles(dir).map((file) => [file, relativeImports(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(dir, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import structure', () => {
  it('core files import only from their own layer or an earlier one (shared → events → card → plugin → interaction → delivery → runtime → compose)', () => {
    const src = join(repoRoot, 'packages/core/src');
    const layerOf = (file: string): number => {
      const path = relative(src, file);
      return CORE_LAYERS.indexOf(ENTRY_POINTS.test(path) ? 'entry' : path.split(/[\\/]/)[0]!);
    };
    const breaks = sourceFiles(src).flatMap((file) =>
      relativeImports(file)
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${relative(src, file)} imports ${relative(src, target)}`),
    );
    expect(breaks).toEqual([]);
  });

  it('no package has an import cycle in its sources', () => {
    const roots = ['packages', 'plugins'].flatMap((group) =>
      readdirSync(join(repoRoot, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(repoRoot, group, entry.name, 'src')),
    );
    const cycles = roots.flatMap((src) => {
      try {
        return importCycles(src).map((cycle) => `${relative(repoRoot, src)}: ${cycle.join(' ↔ ')}`);
      } catch {
        return []; // a package without src/
      }
    });
    expect(cycles).toEqual([]);
  });
});
