import { fileURLToPath } from 'node:url';
import type { TraceFormat } from './types.js';

/** One recorded trace shipped with this package (see `fixtures/traces/ATTRIBUTION.md`). */
export interface BundledTrace {
  /** File name relative to {@link bundledTracesDir}, e.g. `claude-session-subagent.jsonl` or `more/copilot-cli-1.0.34.jsonl`. */
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
  { name: 'more/claude-transcript-2.1.39-compact-interrupt.jsonl', format: 'claude-transcript', description: 'Claude Code 2.1.39: 188 calls, a compaction, an interrupt, background tasks reported by <task-notification> (4 runs)' },
  { name: 'more/claude-stream-json-2.1.215-bg-tasks.log', format: 'claude-stream-json', description: 'Claude Code 2.1.215 stream-json in a wrapper log: 20 background Bash tasks, result totals incl. a haiku helper' },
  { name: 'more/codex-rollout-0.144.6-compacted.jsonl', format: 'codex-rollout', description: 'Codex 0.144.6 code mode: 474 calls (JavaScript exec scripts and wait), 15 failed, 3 compactions' },
  { name: 'more/cursor-stream-json-parallel.jsonl', format: 'cursor-stream-json', description: 'Cursor CLI stream-json: two shell calls in parallel' },
  { name: 'more/opencode-agent-json-events.log', format: 'opencode-json', description: 'OpenCode-style JSON events in a wrapper log: 21 calls, then "The operation timed out."' },
  { name: 'more/gemini-chat-legacy-single.json', format: 'gemini-chat-json', description: 'Gemini CLI 2025 chat recording as one JSON document, no tool calls' },
  { name: 'more/copilot-cli-1.0.34.jsonl', format: 'copilot-events', description: 'GitHub Copilot CLI 1.0.34 events.jsonl: 13 calls, ends with task_complete' },
  { name: 't3/claude-stream-json-2.1.17-opus.log', format: 'claude-stream-json', description: 'Claude Code 2.1.17 stream-json in a wrapper log: 47 calls (5 TodoWrite), a haiku helper' },
  { name: 't3/claude-stream-json-2.1.207.log', format: 'claude-stream-json', description: 'Claude Code 2.1.207 stream-json in a wrapper log: 52 calls, 20 background Bash tasks' },
  { name: 't3/claude-transcript-2.1.215-long-bash.jsonl', format: 'claude-transcript', description: 'Claude Code 2.1.215 transcript: 242 calls, a 603 s command, 2 compactions' },
  { name: 't3/opencode-run-json-plain.jsonl', format: 'opencode-json', description: 'OpenCode run --format json, plain JSONL: a write and a bash call' },
  { name: 't3/openhands-trajectory-gui.json', format: 'openhands-trajectory', description: 'OpenHands trajectory: 4 calls, a server command stopped by the no-output timeout' },
];

/** Folder of the bundled traces, resolved from this module's location (not the working directory). */
export function bundledTracesDir(): string {
  return fileURLToPath(new URL('../fixtures/traces/', import.meta.url));
}

/**
 * The twenty-one recorded traces shipped with this package (nine in `fixtures/traces/`, seven in
 * `fixtures/traces/more/`, five in `fixtures/traces/t3/`), with their format and absolute path.
 */
export function bundledTraces(): BundledTrace[] {
  const dir = bundledTracesDir();
  return TRACES.map((trace) => ({ ...trace, path: `${dir}${trace.name}` }));
}
