import type { RunBuilder } from '../run-builder.js';
import { isObject, parseTime, str } from '../text.js';
import type { Converter } from './converter.js';
import { ClaudeBlocks, classifyPrompt, MAIN, resultText } from './claude-shared.js';

/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`).
 *
 * - Runs: a typed prompt (a `user` line with text and no tool results, not `isMeta`) starts a run;
 *   the run before it ends there. A slash command (`<command-name>`) waits for the model: the run
 *   starts at the first assistant line after it, and a local command (`/mcp`, `/exit`: its
 *   `<local-command-stdout>` follows) starts nothing and ends nothing.
 * - `[Request interrupted by user…]` cancels the run at once.
 * - A main assistant line with `stop_reason: "end_turn"` (Claude Code 2.1.x) and no tool call
 *   running ends the run there, completed with its text. A run whose transcript shows no ending
 *   (older transcripts write none) ends when the next prompt's run starts, or at the end of the file: completed with the last assistant text, or failed when
 *   tool calls are still open.
 * - Rounds are assistant message ids (one message is split over several lines).
 * - `isSidechain` lines (inline subagent) and `progress` records of type `agent_progress` (the
 *   subagent of the Task call `parentToolUseID`) become tool activity of that Task call; see
 *   {@link ClaudeBlocks}.
 * - A synthetic API error message (`isApiErrorMessage`) fails the run.
 * - A subagent transcript on its own (Claude Code 2.1.x writes `<session>/subagents/agent-*.jsonl`,
 *   every line `isSidechain`) is read as the main agent's: until a line that is not a sidechain
 *   line appears, sidechain lines are the file's own agent.
 * - Harness-injected prompts (`<task-notification>` when a background task ends) start a run
 *   titled by their `<summary>`, never by the markup.
 * - Other records (`file-history-snapshot`, `summary`, hook progress, `system`…) are skipped.
 */
export function claudeTranscript(b: RunBuilder): Converter {
  const blocks = new ClaudeBlocks(b);
  let sawMain = false;

  function mainUser(record: Record<string, unknown>): void {
    const message = isObject(record.message) ? record.message : {};
    const text = blocks.user(message.content);
    if (text === undefined || record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true) return;
    const prompt = classifyPrompt(text);
    if (prompt.kind === 'local') b.dropPrompt();
    else if (prompt.kind === 'command') b.prompt(prompt.title);
    else if (prompt.kind === 'prompt') {
      b.endRun();
      b.prompt(prompt.title);
    }
  }

  function progress(record: Record<string, unknown>): void {
    const data = isObject(record.data) ? record.data : undefined;
    if (data?.type !== 'agent_progress' || !isObject(data.message)) return;
    const inner = data.message;
    const origin = { kind: 'subagent', parentId: str(record.parentToolUseID) } as const;
    if (inner.type === 'assistant') blocks.assistant(inner.message, origin);
    else if (inner.type === 'user' && isObject(inner.message) && b.runActive) blocks.user(inner.message.content);
  }

  return {
    record(value: unknown): void {
      if (!isObject(value)) return;
      b.tick(parseTime(value.timestamp));
      // A subagent transcript on its own (`<session>/subagents/agent-*.jsonl`): every line is a
      // sidechain line, and the subagent is the agent of the file.
      if ((value.type === 'user' || value.type === 'assistant') && value.isSidechain !== true) sawMain = true;
      const sidechain = value.isSidechain === true && sawMain;
      switch (value.type) {
        case 'assistant':
          if (sidechain) blocks.assistant(value.message, { kind: 'subagent' });
          else if (value.isApiErrorMessage === true) {
            const message = isObject(value.message) ? value.message : {};
            b.fail(resultText(message.content) || 'API error');
          } else {
            blocks.assistant(value.message, MAIN);
            // Claude Code 2.1.x stamps each assistant line with its stop reason: `end_turn` with no
            // tool call waiting is the end of the turn (the run completes now, not at the next prompt).
            const stop = isObject(value.message) ? value.message.stop_reason : undefined;
            if (stop === 'end_turn' && b.runActive && !b.hasOpenTools) b.endRun();
          }
          return;
        case 'user':
          if (sidechain) {
            if (b.runActive && isObject(value.message)) blocks.user(value.message.content);
          } else mainUser(value);
          return;
        case 'progress':
          progress(value);
          return;
        default:
          return;
      }
    },
    end(): void {
      b.finish();
    },
  };
}
