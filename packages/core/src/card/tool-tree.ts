import type { Locale, ToolLine } from './view.js';

/**
 * One top-level entry of the tools section: a call of the main agent, or a subagent call (Claude
 * `Task`/`Agent`, a Codex spawned agent, a background task) with the calls its subagent made.
 */
export interface ToolTreeEntry {
  /** The call's own line; for a subagent: its status, elapsed time and tool count. */
  readonly line: ToolLine;
  /** True when the call ran a subagent (at least one call names it as `parentCallId`). */
  readonly subagent: boolean;
  /**
   * True when the subagent's calls are shown under it: while it runs. Once it is done (finished,
   * failed, interrupted) its calls fold away and its line's tool count stands for them.
   */
  readonly open: boolean;
  /** The subagent's latest calls (at most `maxChildren`), in start order; all of them when folded, for a native fold. */
  readonly children: readonly ToolLine[];
  /** The subagent's earlier calls left out of {@link children}. */
  readonly hiddenChildren: number;
}

/** The tools section as a tree: the entries shown and how many calls the entries left out held. */
export interface ToolTree {
  /** Top-level entries shown, in start order. */
  readonly entries: readonly ToolTreeEntry[];
  /** Tool calls (subagents' calls included) in the earlier entries left out. */
  readonly olderCalls: number;
  /** The earlier entries left out (for a renderer that lists them folded), in start order. */
  readonly older: readonly ToolTreeEntry[];
}

/** Options of {@link toolTree}. */
export interface ToolTreeOptions {
  /** Most top-level entries shown; the latest one, running ones, then subagents are kept first (default all). */
  readonly maxEntries?: number;
  /** Most calls listed under one subagent (its latest; default 5). */
  readonly maxChildren?: number;
  /**
   * With `maxEntries`: `true` (default) fills the places the latest and running entries leave with
   * the latest others; `false` shows only the latest entry and the running ones.
   */
  readonly fillWithLatest?: boolean;
}

/** Default of {@link ToolTreeOptions.maxChildren}. */
export const MAX_SUBAGENT_CHILDREN = 5;

/**
 * Groups the card's tool lines (`CardView.tools`) into a tree: each subagent call a line of its own
 * with its calls under it, other calls as they are. Children keep their start order; a child whose
 * subagent call is not on the card stays a top-level entry. With `maxEntries`, the latest entry, the
 * running ones and the subagents stay (in that order of precedence) and the earliest others are
 * left out ({@link ToolTree.older}).
 */
export function toolTree(tools: readonly ToolLine[], options: ToolTreeOptions = {}): ToolTree {
  const maxChildren = Math.max(0, options.maxChildren ?? MAX_SUBAGENT_CHILDREN);
  const ids = new Set(tools.map((tool) => tool.callId));
  const childrenOf = new Map<string, ToolLine[]>();
  const top: ToolLine[] = [];
  for (const tool of tools) {
    if (tool.parentCallId !== undefined && tool.parentCallId !== tool.callId && ids.has(tool.parentCallId)) {
      const list = childrenOf.get(tool.parentCallId) ?? [];
      list.push(tool);
      childrenOf.set(tool.parentCallId, list);
    } else top.push(tool);
  }
  const all = top.map((line): ToolTreeEntry & { readonly calls: number } => {
    const children = childrenOf.get(line.callId) ?? [];
    const open = line.state === 'running';
    const listed = children.slice(-maxChildren);
    return { line, subagent: children.length > 0, open, children: listed, hiddenChildren: children.length - listed.length, calls: 1 + children.length };
  });
  const max = options.maxEntries ?? all.length;
  if (all.length <= max) return { entries: all.map(strip), olderCalls: 0, older: [] };
  const keep = new Set<number>([all.length - 1]);
  for (let i = all.length - 2; i >= 0 && keep.size < max; i--) if (all[i]!.line.state === 'running') keep.add(i);
  // A subagent's line stands for many calls and how that part of the run went: it stays before plain calls.
  for (let i = all.length - 2; i >= 0 && keep.size < max; i--) if (all[i]!.subagent) keep.add(i);
  if (options.fillWithLatest ?? true) for (let i = all.length - 2; i >= 0 && keep.size < max; i--) keep.add(i);
  const entries = all.filter((_, i) => keep.has(i));
  const older = all.filter((_, i) => !keep.has(i));
  return { entries: entries.map(strip), older: older.map(strip), olderCalls: older.reduce((sum, entry) => sum + entry.calls, 0) };
}

function strip(entry: ToolTreeEntry & { readonly calls: number }): ToolTreeEntry {
  const { calls: _calls, ...rest } = entry;
  return rest;
}

/**
 * A subagent's call's text under its subagent line: the line's text without the subagent's name
 * the source put in front (`Task › Bash: \`ls\`` → `Bash: \`ls\``). `text` is the child's text to
 * shorten (default its own; a renderer that re-made it in another locale passes that).
 */
export function childToolText(child: ToolLine, parent: ToolLine, text: string = child.text): string {
  for (const separator of [' › ', ' > ', ' / ']) {
    const prefix = `${parent.name}${separator}`;
    if (text.startsWith(prefix)) return text.slice(prefix.length);
  }
  return text;
}

/** `… 3 earlier calls of this subagent` / `…该子代理另有 3 个较早的调用`: the line for a subagent's calls left out. */
export function hiddenChildrenText(count: number, locale: Locale): string {
  return locale === 'zh-CN' ? `…该子代理另有 ${count} 个较早的调用` : `…${count} earlier call${count === 1 ? '' : 's'} of this subagent`;
}

/** One row of a text tools section: depth 0 for an entry, 1 under a subagent. */
export interface ToolTreeRow {
  readonly depth: 0 | 1;
  /** The row's text (children without their subagent's name in front). */
  readonly text: string;
  /** The call the row shows; absent on a "earlier calls of this subagent" row. */
  readonly line?: ToolLine;
}

/**
 * The tree as rows for a channel without a native fold: each entry's line, and under an open
 * (running) subagent its latest calls at depth 1, after a row counting its earlier ones. A done
 * subagent is one row (folded; its tool count is on its line).
 */
export function toolTreeRows(tree: ToolTree, locale: Locale): ToolTreeRow[] {
  const rows: ToolTreeRow[] = [];
  for (const entry of tree.entries) {
    rows.push({ depth: 0, text: entry.line.text, line: entry.line });
    if (!entry.subagent || !entry.open) continue;
    if (entry.hiddenChildren > 0) rows.push({ depth: 1, text: hiddenChildrenText(entry.hiddenChildren, locale) });
    for (const child of entry.children) rows.push({ depth: 1, text: childToolText(child, entry.line), line: child });
  }
  return rows;
}

/**
 * The largest tree (at most `options.maxEntries` entries, then fewer, down to one) whose rendered text
 * fits `maxChars` code units: earlier entries leave whole, with their subagent's calls, so the latest
 * calls stay on a card whose section has a size limit (instead of the section's end being cut).
 * Returns the last try (one entry) when none fits; the caller still cuts that.
 */
export function fitToolTree(tools: readonly ToolLine[], options: ToolTreeOptions, render: (tree: ToolTree) => string, maxChars: number): string {
  let entries = options.maxEntries ?? tools.length;
  for (;;) {
    const text = render(toolTree(tools, { ...options, maxEntries: entries }));
    if (text.length <= maxChars || entries <= 1) return text;
    entries -= 1;
  }
}
