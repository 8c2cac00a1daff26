/**
 * `npm run bench -- --readme`: the README's bench tables from one run of the current code — the
 * simulated points only (so the machine's load does not change them), every design, seeds 1–3 with
 * the median and spread, both bound definitions. The tables go between the README's
 * {@link BEGIN_MARKER} and {@link END_MARKER}; everything outside them is left as it is.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChannelName } from './gates.js';

/** The points the README shows: channel → concurrent runs (one app or workspace, 10 runs per chat). */
export const README_POINTS: readonly { readonly channels: readonly ChannelName[]; readonly ns: readonly number[] }[] = [
  { channels: ['feishu', 'dingtalk'], ns: [1, 50, 500] },
  { channels: ['slack', 'slack-stream'], ns: [1, 2, 5, 10, 50] },
  { channels: ['telegram-private', 'telegram-group', 'discord', 'discord-shifting'], ns: [1, 50] },
  { channels: ['teams-group', 'teams-personal'], ns: [1, 50, 500] },
];

/** Seeds of the README's run. */
export const README_SEEDS: readonly number[] = [1, 2, 3];

export const BEGIN_MARKER = '<!-- bench:tables:begin (written by `npm run bench -- --readme`; edits between the markers are overwritten) -->';
export const END_MARKER = '<!-- bench:tables:end -->';

/** The repository's README. */
const README_PATH = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** The short commit of the working tree, with `+changes` when it has uncommitted changes (`unknown` outside git). */
export function currentCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return 'unknown';
  }
}

/**
 * `readme` with the text between its markers replaced by `generated`.
 * @throws Error when the README lacks either marker, or has them out of order.
 */
export function withGeneratedTables(readme: string, generated: string): string {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (begin < 0 || end < 0 || end < begin) throw new Error(`README.md must hold ${JSON.stringify(BEGIN_MARKER)} followed by ${JSON.stringify(END_MARKER)}`);
  return `${readme.slice(0, begin + BEGIN_MARKER.length)}\n\n${generated.trim()}\n\n${readme.slice(end)}`;
}

/** Writes `generated` between the README's markers. */
export function writeReadmeTables(generated: string, path = README_PATH): void {
  writeFileSync(path, withGeneratedTables(readFileSync(path, 'utf8'), generated));
}
