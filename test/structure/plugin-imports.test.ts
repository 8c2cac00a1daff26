import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every channel plugin is written as a third party would write it: its sources import from the
 * core only `@progresscard/core/plugin` (the contract and the kit), its tests only that, the root
 * entry (`createProgressCards`) and `@progresscard/core/testing` (with `/conformance`); no plugin
 * reaches into the core's files by a relative path or a deep import.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_ALLOWED = new Set(['@progresscard/core/plugin']);
const TEST_ALLOWED = new Set(['@progresscard/core', '@progresscard/core/plugin', '@progresscard/core/testing', '@progresscard/core/testing/conformance']);

function tsFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers of every import, export-from and dynamic import in `text`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map((match) => match[1]!);
}

/** What a plugin file imports of the core that it must not. */
function breaches(file: string, allowed: ReadonlySet<string>): string[] {
  const plugin = relative(repoRoot, file);
  return specifiers(readFileSync(file, 'utf8'))
    .filter((spec) => (spec.startsWith('@progresscard/core') && !allowed.has(spec)) || (spec.startsWith('.') && resolve(dirname(file), spec).startsWith(join(repoRoot, 'packages', 'core'))))
    .map((spec) => `${plugin} imports ${spec}`);
}

const plugins = readdirSync(join(repoRoot, 'plugins'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('plugins import the core only through its public entry points', () => {
  it('finds the seven channels', () => {
    expect(plugins).toEqual(expect.arrayContaining(['feishu', 'dingtalk', 'slack', 'telegram', 'discord', 'wecom', 'teams']));
  });

  it.each(plugins)('%s: sources import only @progresscard/core/plugin', (name) => {
    const files = tsFiles(join(repoRoot, 'plugins', name, 'src'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((file) => breaches(file, SOURCE_ALLOWED))).toEqual([]);
  });

  it.each(plugins)('%s: tests import only the public entry points (and /testing)', (name) => {
    expect(tsFiles(join(repoRoot, 'plugins', name, 'test')).flatMap((file) => breaches(file, TEST_ALLOWED))).toEqual([]);
  });

  it('the check sees a deep import', () => {
    // A file of this test's own kind: were the pattern wrong, every plugin would pass.
    const probe = ["import { x } from '@progresscard/core/src/delivery/x.js';", "import type { y } from '../../../packages/core/src/card/view.js';"].join('\n');
    expect(specifiers(probe)).toEqual(['@progresscard/core/src/delivery/x.js', '../../../packages/core/src/card/view.js']);
  });
});
