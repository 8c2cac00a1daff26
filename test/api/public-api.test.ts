import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_DIR, currentReport, publishedEntryPoints, UPDATE_COMMAND } from './api-report.js';

const entries = publishedEntryPoints();

describe('public API report (api/*.api.txt)', () => {
  it('covers every published package', () => {
    expect(entries.map((e) => e.packageName)).toEqual(
      expect.arrayContaining(['@progresscard/core', '@progresscard/plugin-feishu', '@progresscard/plugin-dingtalk', '@progresscard/sources', '@progresscard/emulator', '@progresscard/cli']),
    );
    const stale = readdirSync(API_DIR).filter((f) => f.endsWith('.api.txt') && !entries.some((e) => e.reportFile === f));
    expect(stale, `reports of entry points that no longer exist; run \`${UPDATE_COMMAND}\``).toEqual([]);
  });

  it.each(entries.map((e) => [e.specifier, e] as const))('%s exports exactly what api/ records', async (_specifier, entry) => {
    const file = `${API_DIR}${entry.reportFile}`;
    const hint =
      `The runtime exports of ${entry.specifier} differ from api/${entry.reportFile}. ` +
      `If the change is deliberate, run \`${UPDATE_COMMAND}\` and commit the updated report (and add a changeset); ` +
      'otherwise restore the export or stop exporting the new name.';
    expect(existsSync(file), `api/${entry.reportFile} is missing: run \`${UPDATE_COMMAND}\``).toBe(true);
    expect(await currentReport(entry), hint).toBe(readFileSync(file, 'utf8'));
    // Importing a package's whole entry (the CLI pulls in every plugin and the emulators) legitimately
    // takes tens of seconds on a busy 2-core machine: the check is what is exported, not how fast.
  }, 120_000);
});
