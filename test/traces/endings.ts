import type { CardView } from '@progresscard/core';

/**
 * How each recorded session ends, read off its last records: a user interrupt marker
 * (`[Request interrupted by user]`), Gemini's "Request cancelled.", or a final answer.
 */
export const ENDINGS: Record<string, CardView['status']> = {
  'claude-session-subagent.jsonl': 'completed',
  'claude-session-tool-heavy.jsonl': 'cancelled',
  'claude-session-parallel-tasks.jsonl': 'completed',
  'claude-session-mcp.jsonl': 'completed',
  'claude-stream-json-pr52.log': 'completed',
  'codex-rollout-parallel.jsonl': 'completed',
  'codex-rollout-plain.jsonl': 'completed',
  'codex-exec-json.log': 'completed',
  'gemini-chat-cancelled.jsonl': 'cancelled',
};
