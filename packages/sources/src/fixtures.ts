import { fileURLToPath } from 'node:url';
import type { TraceFormat } from './types.js';

/** One recorded trace shipped with this package (see `fixtures/traces/ATTRIBUTION.md`). */
export interface BundledTrace {
  /** File name, e.g. `claude-session-subagent.jsonl`. */
  readonly name: string;
  readonly format: TraceFormat;
  /** Absolute path of the file. */
  readonly path: string;
  /** What the trace shows, in a few words. */
  readonly description: string;
}

const TRACES: ReadonlyArray<Omit<BundledTrace, 'path'>> = [
  { name: 'claude-session-subagent.jsonl', format: 'claude-transcript', description: 'Claude Code: web research, a planning subagent, a question and plan approval, then bash (2 runs)' },
  { name: 'claude-session-tool-heavy.jsonl', format: 'claude-transcript', description: 'Claude Code: parallel web search and file reads, both runs interrupted by the user' },
  { name: 'claude-session-parallel-tasks.jsonl', format: 'claude-transcript', description: 'Claude Code: two Task subagents in parallel with inline sidechains' },
  { name: 'claude-session-mcp.jsonl', format: 'claude-transcript', description: 'Claude Code: edits, web search and context7 MCP calls over four prompts, two rejected' },
  { name: 'claude-stream-json-pr52.log', format: 'claude-stream-json', description: 'Claude Code stream-json in a wrapper log: 69 tool calls, ends with a result' },
  { name: 'codex-rollout-parallel.jsonl', format: 'codex-rollout', description: 'Codex rollout: 118 exec calls in parallel batches (text redacted)' },
  { name: 'codex-rollout-plain.jsonl', format: 'codex-rollout', description: 'Codex rollout (older CLI): shell and plan calls with durations in their outputs' },
  { name: 'codex-exec-json.log', format: 'codex-exec', description: 'codex exec --json in a wrapper log: two runs of commands, file changes and todo lists' },
  { name: 'gemini-chat-cancelled.jsonl', format: 'gemini-chat', description: 'Gemini CLI: /init with parallel file reads, then an edit that the user cancelled' },
];

/** Folder of the bundled traces, resolved from this module's location (not the working directory). */
export function bundledTracesDir(): string {
  return fileURLToPath(new URL('../fixtures/traces/', import.meta.url));
}

/** The nine recorded traces shipped with this package, with their format and absolute path. */
export function bundledTraces(): BundledTrace[] {
  const dir = bundledTracesDir();
  return TRACES.map((trace) => ({ ...trace, path: `${dir}${trace.name}` }));
}
