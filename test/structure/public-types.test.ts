import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Every declaration file a consumer's `tsc` reads from `entry` through relative imports, with the packages they import. */
function declarationGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    graph.set(file, specifiers.filter((s) => !s.startsWith('.')));
    for (const s of specifiers.filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(file), s.replace(/\.js$/, '.d.ts'));
      if (existsSync(target)) pending.push(target);
    }
  }
  return graph;
}

describe('public types of the plugins', () => {
  it("@progresscard/plugin-feishu's public types never import the Lark SDK's (a consumer's tsc would read its 300 000-line type file)", () => {
    const entry = join(REPO, 'plugins/feishu/dist/index.d.ts');
    const graph = declarationGraph(entry);
    expect(graph.size).toBeGreaterThan(5);
    const importing = [...graph].filter(([, packages]) => packages.some((p) => p.startsWith('@larksuiteoapi/'))).map(([file]) => file.slice(REPO.length));
    expect(importing).toEqual([]);
  });
});
