import type { CardStatus } from '@progresscard/core';

/** What a right replay shows: run statuses in order, finished tool calls and failed ones over all runs. */
export interface Expected {
  readonly runs: readonly CardStatus[];
  /** Tool lines on the final cards; undefined: the raw file's tool-call ids, counted by `rawFacts`. */
  readonly tools?: number;
  readonly failed?: number;
  /**
   * Per run, the final card's plan as `done / total` (`null`: the run kept no plan), read off the
   * run's last TodoWrite / update_plan / todo_list / todowrite call.
   */
  readonly plans?: readonly (string | null)[];
  /** Per run, the files its successful write / edit / patch calls changed (distinct paths). */
  readonly changedFiles?: readonly number[];
}

/**
 * The first nine: endings read off the last records (a user interrupt marker, Gemini's "Request
 * cancelled.", a final answer); tool counts from the raw files (`rawFacts`). The seven under more/:
 * the table "What a right replay shows" of more/SOURCES.md, except opencode's tool count: the file
 * holds 21 completed tool parts (edit 3, not 2 as the table says; call ids listed in ATTRIBUTION.md).
 * The five under t3/: the table "What a right replay shows" of t3/SOURCES.md (plans and changed files
 * read off the replays; OpenHands' str_replace_editor writes are not read as file changes yet).
 * Plan tool calls are the card's plan, not tool lines: opencode's 3 todowrite calls and the Codex
 * 0.144 trace's 3 scripts that only call update_plan are not counted (21 → 18, 474 → 471); its two
 * scripts that update the plan and then run a command are that command's tool line.
 */
export const EXPECTED: Record<string, Expected> = {
  'claude-session-subagent.jsonl': { runs: ['cancelled', 'completed'], plans: [null, null], changedFiles: [1, 0] },
  'claude-session-tool-heavy.jsonl': { runs: ['cancelled', 'cancelled'], plans: [null, null], changedFiles: [0, 0] },
  'claude-session-parallel-tasks.jsonl': { runs: ['completed'], plans: ['4 / 4'], changedFiles: [1] },
  'claude-session-mcp.jsonl': { runs: ['cancelled', 'completed', 'cancelled', 'completed'], plans: ['1 / 7', '7 / 7', null, '3 / 3'], changedFiles: [0, 4, 0, 1] },
  'claude-stream-json-pr52.log': { runs: ['completed'], plans: ['12 / 12'], changedFiles: [6] },
  'codex-rollout-parallel.jsonl': { runs: ['completed'], plans: [null], changedFiles: [0] },
  'codex-rollout-plain.jsonl': { runs: ['completed'], plans: ['2 / 2'], changedFiles: [2] },
  'codex-exec-json.log': { runs: ['completed', 'completed'], plans: ['6 / 7', '6 / 6'], changedFiles: [3, 0] },
  'gemini-chat-cancelled.jsonl': { runs: ['completed', 'cancelled'], plans: [null, null], changedFiles: [1, 1] },
  'more/claude-transcript-2.1.39-compact-interrupt.jsonl': { runs: ['cancelled', 'completed', 'completed', 'completed'], tools: 188, failed: 7, plans: [null, null, null, null], changedFiles: [10, 18, 0, 0] },
  'more/claude-stream-json-2.1.215-bg-tasks.log': { runs: ['completed'], tools: 27, failed: 4, plans: [null], changedFiles: [3] },
  'more/codex-rollout-0.144.6-compacted.jsonl': { runs: ['completed'], tools: 471, failed: 15, plans: ['8 / 8'], changedFiles: [23] },
  'more/cursor-stream-json-parallel.jsonl': { runs: ['completed'], tools: 2, failed: 0, plans: [null], changedFiles: [0] },
  'more/opencode-agent-json-events.log': { runs: ['failed'], tools: 18, failed: 0, plans: ['1 / 8'], changedFiles: [1] },
  'more/gemini-chat-legacy-single.json': { runs: ['completed'], tools: 0, failed: 0, plans: [null], changedFiles: [0] },
  'more/copilot-cli-1.0.34.jsonl': { runs: ['completed'], tools: 13, failed: 0, plans: [null], changedFiles: [0] },
  't3/claude-stream-json-2.1.17-opus.log': { runs: ['completed'], tools: 42, failed: 1, plans: ['8 / 8'], changedFiles: [1] },
  't3/claude-stream-json-2.1.207.log': { runs: ['completed'], tools: 52, failed: 0, plans: [null], changedFiles: [2] },
  't3/claude-transcript-2.1.215-long-bash.jsonl': { runs: ['completed'], tools: 242, failed: 12, plans: [null], changedFiles: [9] },
  't3/opencode-run-json-plain.jsonl': { runs: ['completed'], tools: 2, failed: 0, plans: [null], changedFiles: [1] },
  't3/openhands-trajectory-gui.json': { runs: ['completed'], tools: 4, failed: 1, plans: [null], changedFiles: [0] },
};
