import type { CardStatus } from '@progresscard/core';

/** What a right replay shows: run statuses in order, finished tool calls and failed ones over all runs. */
export interface Expected {
  readonly runs: readonly CardStatus[];
  /** Tool lines on the final cards; undefined: the raw file's tool-call ids, counted by `rawFacts`. */
  readonly tools?: number;
  readonly failed?: number;
}

/**
 * The first nine: endings read off the last records (a user interrupt marker, Gemini's "Request
 * cancelled.", a final answer); tool counts from the raw files (`rawFacts`). The seven under more/:
 * the table "What a right replay shows" of more/SOURCES.md, except opencode's tool count: the file
 * holds 21 completed tool parts (edit 3, not 2 as the table says; call ids listed in ATTRIBUTION.md).
 */
export const EXPECTED: Record<string, Expected> = {
  'claude-session-subagent.jsonl': { runs: ['cancelled', 'completed'] },
  'claude-session-tool-heavy.jsonl': { runs: ['cancelled', 'cancelled'] },
  'claude-session-parallel-tasks.jsonl': { runs: ['completed'] },
  'claude-session-mcp.jsonl': { runs: ['cancelled', 'completed', 'cancelled', 'completed'] },
  'claude-stream-json-pr52.log': { runs: ['completed'] },
  'codex-rollout-parallel.jsonl': { runs: ['completed'] },
  'codex-rollout-plain.jsonl': { runs: ['completed'] },
  'codex-exec-json.log': { runs: ['completed', 'completed'] },
  'gemini-chat-cancelled.jsonl': { runs: ['completed', 'cancelled'] },
  'more/claude-transcript-2.1.39-compact-interrupt.jsonl': { runs: ['cancelled', 'completed', 'completed', 'completed'], tools: 188, failed: 7 },
  'more/claude-stream-json-2.1.215-bg-tasks.log': { runs: ['completed'], tools: 27, failed: 4 },
  'more/codex-rollout-0.144.6-compacted.jsonl': { runs: ['completed'], tools: 474, failed: 15 },
  'more/cursor-stream-json-parallel.jsonl': { runs: ['completed'], tools: 2, failed: 0 },
  'more/opencode-agent-json-events.log': { runs: ['failed'], tools: 21, failed: 0 },
  'more/gemini-chat-legacy-single.json': { runs: ['completed'], tools: 0, failed: 0 },
  'more/copilot-cli-1.0.34.jsonl': { runs: ['completed'], tools: 13, failed: 0 },
};
