import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TraceFormat } from '@progresscard/sources';

/** One place watch follows: a folder, which files in it are sessions, and their format. */
export interface WatchLocation {
  /** Which agent writes there (for messages). */
  readonly agent: 'claude' | 'codex' | 'gemini' | 'dir';
  readonly dir: string;
  /** True for a file (absolute path) that is a session file of this location. */
  matches(path: string): boolean;
  /** The trace format, or `auto` to detect it from the first lines. */
  readonly format: TraceFormat | 'auto';
}

/** The session files of each agent under its folder, and their format. */
const AGENTS = {
  // Claude Code: ~/.claude/projects/<project>/<session>.jsonl
  claude: { sub: ['.claude', 'projects'], match: /\.jsonl$/, format: 'claude-transcript' },
  // Codex: ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl
  codex: { sub: ['.codex', 'sessions'], match: /(^|[\\/])rollout-[^\\/]*\.jsonl$/, format: 'codex-rollout' },
  // Gemini CLI: ~/.gemini/tmp/<project hash>/chats/session-<time>.jsonl (the JSONL chat recording)
  gemini: { sub: ['.gemini', 'tmp'], match: /[\\/]chats[\\/][^\\/]*\.jsonl$/, format: 'gemini-chat' },
} as const satisfies Record<string, { sub: readonly string[]; match: RegExp; format: TraceFormat }>;

/** Folder overrides from the command line (undefined: the default under the home folder). */
export interface LocationOptions {
  readonly claude?: string;
  readonly codex?: string;
  readonly gemini?: string;
  /** Extra folders of trace files of any format (`.jsonl`, `.log`), detected per file. */
  readonly dirs?: readonly string[];
  /** When true, only the given folders are followed (no defaults). */
  readonly onlyGiven?: boolean;
  readonly home?: string;
}

/**
 * Where watch looks. By default the three agents' folders under the home folder; `--claude`,
 * `--codex`, `--gemini` replace one; `--dir` adds folders of any trace files (and, given alone,
 * replaces the defaults).
 */
export function watchLocations(options: LocationOptions): WatchLocation[] {
  const home = options.home ?? homedir();
  const given = (['claude', 'codex', 'gemini'] as const).filter((agent) => options[agent] !== undefined);
  const onlyGiven = options.onlyGiven ?? (given.length > 0 || (options.dirs?.length ?? 0) > 0);
  const agents = onlyGiven ? given : (['claude', 'codex', 'gemini'] as const);
  const locations: WatchLocation[] = agents.map((agent) => {
    const spec = AGENTS[agent];
    return { agent, dir: options[agent] ?? join(home, ...spec.sub), format: spec.format, matches: (path: string) => spec.match.test(path) };
  });
  for (const dir of options.dirs ?? []) locations.push({ agent: 'dir', dir, format: 'auto', matches: (path) => /\.(jsonl|log)$/.test(path) });
  return locations;
}

/**
 * The folders given on the command line (`--claude`, `--codex`, `--gemini`, `--dir`) that are not
 * existing folders, each with its option, e.g. `--dir /nonexistent`. A folder typed by hand that
 * does not exist is a mistake: watching it would wait silently forever. The default folders are
 * not checked: an agent not used yet creates its folder when it first runs.
 */
export async function missingGivenFolders(options: LocationOptions): Promise<string[]> {
  const given = [
    ...(['claude', 'codex', 'gemini'] as const).flatMap((agent) => (options[agent] === undefined ? [] : [{ option: `--${agent}`, dir: options[agent] }])),
    ...(options.dirs ?? []).map((dir) => ({ option: '--dir', dir })),
  ];
  const missing: string[] = [];
  for (const { option, dir } of given) {
    const isFolder = await stat(dir).then((info) => info.isDirectory(), () => false);
    if (!isFolder) missing.push(`${option} ${dir}`);
  }
  return missing;
}
