// A Claude Agent SDK run mirrored onto a live card: `npm start -w examples/claude-agent-sdk`.
// Default: a scripted message sequence of the shape query() yields (no network, no key). With
// ANTHROPIC_API_KEY set, a real query() in the current folder (read-only tools). Bash asks for
// permission on the card (canUseTool): the run goes on after the click (on the emulator: in the
// preview page the example prints).
import { canUseToolOnCard, mirrorClaudeAgent, type ClaudeAgentMessage } from '@progresscard/adapters/claude-agent-sdk';
import type { ProgressCard } from '@progresscard/core';
import { exampleCards, type ExampleCards } from '@progresscard/example-kit';

const prompt = 'How many TypeScript files does this folder have?';

/** What query() streams for a short run: init, a Bash call (asking canUseTool first, as the SDK does) and its result, the answer, the result. */
async function* scriptedQuery(canUseTool: ReturnType<typeof canUseToolOnCard>): AsyncGenerator<ClaudeAgentMessage> {
  const session_id = 'example-session';
  const pause = () => new Promise((r) => setTimeout(r, 800));
  yield { type: 'system', subtype: 'init', model: 'claude-sonnet-4-5', session_id } as ClaudeAgentMessage;
  await pause();
  yield { type: 'assistant', session_id, parent_tool_use_id: null, message: { id: 'msg_1', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: "find . -name '*.ts' | wc -l" } }], usage: { input_tokens: 1200, output_tokens: 40 } } } as ClaudeAgentMessage;
  await pause();
  const permission = await canUseTool('Bash', { command: "find . -name '*.ts' | wc -l" }, { signal: new AbortController().signal, toolUseID: 'toolu_1' });
  const allowed = permission.behavior === 'allow';
  const toolResult = allowed ? '142' : permission.message;
  const answer = allowed ? 'This folder has 142 TypeScript files.' : 'I was not allowed to count the files.';
  yield { type: 'user', session_id, parent_tool_use_id: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: toolResult, is_error: !allowed }] } } as ClaudeAgentMessage;
  await pause();
  yield { type: 'assistant', session_id, parent_tool_use_id: null, message: { id: 'msg_2', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: answer }], usage: { input_tokens: 1300, output_tokens: 14 } } } as ClaudeAgentMessage;
  yield { type: 'result', subtype: 'success', is_error: false, result: answer, duration_ms: 2600, session_id, modelUsage: { 'claude-sonnet-4-5': { contextWindow: 200000 } } } as ClaudeAgentMessage;
}

/** Deny after 2 minutes without a click. */
const approvalTimeoutMs = 120_000;

/** canUseTool on the card's buttons, saying in the terminal that the run now waits for a click. */
function canUseToolAnnounced(example: ExampleCards, card: ProgressCard): ReturnType<typeof canUseToolOnCard> {
  const onCard = canUseToolOnCard(card, { timeoutMs: approvalTimeoutMs });
  return (toolName, input, options) => {
    example.announceApprovalWait(card, approvalTimeoutMs);
    return onCard(toolName, input, options);
  };
}

async function realQuery(canUseTool: ReturnType<typeof canUseToolOnCard>): Promise<AsyncIterable<ClaudeAgentMessage>> {
  const { query } = await import('@anthropic-ai/claude-agent-sdk');
  // Bash is not pre-allowed, so each Bash call asks canUseTool: the card's Approve / Deny buttons.
  return query({ prompt, options: { allowedTools: ['Glob', 'Read'], permissionMode: 'default', canUseTool } });
}

const example = await exampleCards();
const card = example.open(prompt);
const canUseTool = canUseToolAnnounced(example, card);
await mirrorClaudeAgent(process.env.ANTHROPIC_API_KEY ? await realQuery(canUseTool) : scriptedQuery(canUseTool), card, { title: prompt });
await example.finish(card);
