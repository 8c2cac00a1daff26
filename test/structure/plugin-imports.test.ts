import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

/**
 * A channel plugin is written as a third party would write it: from the core it imports only the
 * plugin entry point (`@progresscard/core/plugin`), and no relative import leaves its own `src/`.
 */
it('every plugin imports nothing from the core but @progresscard/core/plugin', () => {
  const plugins = readdirSync(join(repoRoot, 'plugins'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  expect(plugins.map((p) => p.name)).toContain('wecom');
  const breaks = plugins.flatMap((plugin) => {
    const src = join(repoRoot, 'plugins', plugin.name, 'src');
    return sourceFiles(src).flatMap((file) =>
      specifiers(file)
        .filter((spec) => (spec.startsWith('@progresscard/') && spec !== '@progresscard/core/plugin') || (spec.startsWith('.') && relative(src, resolve(dirname(file), spec)).startsWith('..')))
        .map((spec) => `${relative(repoRoot, file)} imports ${spec}`),
    );
  });
  expect(breaks).toEqual([]);
});
