import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { ThreadEvent } from '@openai/codex-sdk';
import type { AgentEvent } from '@progresscard/core';
import { mirrorClaudeAgent } from '@progresscard/adapters/claude-agent-sdk';
import { mirrorCodex } from '@progresscard/adapters/codex-sdk';
import { bundledTraces, readTrace } from '@progresscard/sources';
import { memoryHarness } from './harness.js';
import { recordedMessages, streamOf } from './recorded.js';

/** Events a card received, without times. */
function recordingCard(card: ReturnType<ReturnType<typeof memoryHarness>['open']>) {
  const events: AgentEvent[] = [];
  const push = card.push.bind(card);
  (card as { push: typeof card.push }).push = (event: unknown) => {
    const { at: _at, ...rest } = event as AgentEvent;
    events.push(rest as AgentEvent);
    return push(event);
  };
  return events;
}

/** Events the trace reader makes of a bundled trace's run `run`, without times. */
async function traceEvents(name: string, run: number): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const item of readTrace(bundledTraces().find((t) => t.name === name)!.path)) {
    if (item.kind === 'event' && item.run === run) {
      const { at: _at, ...rest } = item.event;
      out.push(rest as AgentEvent);
    }
  }
  return out;
}

describe('mirrorClaudeAgent (recorded query() messages)', () => {
  const messages = recordedMessages('claude-stream-json-pr52.log');

  it('maps the messages exactly as the stream-json trace reader maps the same run', async () => {
    const h = memoryHarness();
    const card = h.open();
    const received = recordingCard(card);
    const outcome = await mirrorClaudeAgent(streamOf(messages), card);
    expect(outcome.status).toBe('completed');
    expect(received).toEqual(await traceEvents('claude-stream-json-pr52.log', 1));
    await h.cards.shutdown();
  });

  it('shows every tool call, the result text as the answer and the usage in the footer', async () => {
    const h = memoryHarness();
    const card = h.open();
    await mirrorClaudeAgent(streamOf(messages), card, { title: 'Fix issue 52' });
    const result = messages.find((m) => m.type === 'result')!;
    const payload = await h.finalPayload(card);
    expect(payload.status).toBe('completed');
    expect(payload.title).toBe('Fix issue 52');
    expect(payload.answer).toBe(String(result.result).trim());
    // 69 tool calls, 13 of them TodoWrite: those are the plan, 12 / 12 done at the end.
    expect(card.view().footer.toolCount).toBe(56);
    expect(card.view().plan).toMatchObject({ done: 12, total: 12 });
    expect(card.view().changedFiles).toHaveLength(6);
    expect(card.view().footer.costUsd).toBe(result.total_cost_usd);
    expect(card.view().footer.model).toMatch(/^claude-/);
    expect(card.view().footer.inputTokens).toBeGreaterThan(0);
    expect(payload.footer).not.toBe('');
    await h.cards.shutdown();
  });

  it('an error result fails the card with its errors', async () => {
    const h = memoryHarness();
    const card = h.open();
    const failing = [
      ...messages.filter((m) => m.type !== 'result').slice(0, 10),
      { type: 'result', subtype: 'error_max_turns', is_error: true, session_id: 's', duration_ms: 1000, errors: ['Reached maximum number of turns (3)'] },
    ];
    const outcome = await mirrorClaudeAgent(streamOf(failing), card);
    expect(outcome).toEqual({ status: 'failed', error: 'Reached maximum number of turns (3)' });
    await h.cards.shutdown();
  });

  it('a query that throws fails the card and the error reaches the caller', async () => {
    const h = memoryHarness();
    const card = h.open();
    async function* dying() {
      yield messages[0]!;
      yield messages[1]!;
      throw new Error('Claude Code process exited with code 1');
    }
    await expect(mirrorClaudeAgent(dying(), card)).rejects.toThrow('exited with code 1');
    expect(card.view()).toMatchObject({ status: 'failed', error: 'Claude Code process exited with code 1' });
    await h.cards.shutdown();
  });
});

describe('mirrorCodex (recorded runStreamed() events)', () => {
  const all = recordedMessages('codex-exec-json.log');
  const firstTurn = all.slice(0, all.findIndex((e) => e.type === 'turn.completed') + 1);

  it('maps the events exactly as the codex exec trace reader maps the same turn', async () => {
    const h = memoryHarness();
    const card = h.open();
    const received = recordingCard(card);
    await mirrorCodex(streamOf(firstTurn), card);
    expect(received).toEqual(await traceEvents('codex-exec-json.log', 1));
    await h.cards.shutdown();
  });

  it('shows commands and file changes, the last agent message and the turn usage', async () => {
    const h = memoryHarness();
    const card = h.open();
    const outcome = await mirrorCodex(streamOf(firstTurn), card, { title: 'Add logging', model: 'gpt-5-codex' });
    expect(outcome.status).toBe('completed');
    const payload = await h.finalPayload(card);
    const lastMessage = firstTurn.filter((e) => e.type === 'item.completed' && (e.item as { type: string }).type === 'agent_message').at(-1)!;
    expect(payload.answer).toBe((lastMessage.item as { text: string }).text);
    expect(payload.tools.some((line) => line.startsWith('exec_command'))).toBe(true);
    expect(payload.tools.some((line) => line.startsWith('file_change'))).toBe(true);
    expect(card.view().footer).toMatchObject({ inputTokens: 177136, outputTokens: 2836, model: 'gpt-5-codex' });
    await h.cards.shutdown();
  });

  it('a failed turn fails the card', async () => {
    const h = memoryHarness();
    const card = h.open();
    const failing = [...firstTurn.slice(0, 6), { type: 'turn.failed', error: { message: 'stream disconnected before completion' } }];
    expect(await mirrorCodex(streamOf(failing), card)).toEqual({ status: 'failed', error: 'stream disconnected before completion' });
    await h.cards.shutdown();
  });
});

// Compile-time check (npm run build type-checks tests): the adapters take the SDKs' own stream types.
export const acceptsTheSdkStreams = (card: Parameters<typeof mirrorCodex>[1], claude: AsyncIterable<SDKMessage>, codex: AsyncIterable<ThreadEvent>) => [
  mirrorClaudeAgent(claude, card),
  mirrorCodex(codex, card),
];
