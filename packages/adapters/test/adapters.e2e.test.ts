/**
 * Every adapter onto a Feishu card over the emulator (real loopback HTTP, the real Feishu SDK):
 * the final message shows the run's status, tool lines, answer and token usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { Agent, Runner, tool as agentTool } from '@openai/agents';
import { streamText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { mirrorAiSdk } from '@progresscard/adapters/ai-sdk';
import { mirrorClaudeAgent } from '@progresscard/adapters/claude-agent-sdk';
import { mirrorCodex } from '@progresscard/adapters/codex-sdk';
import { mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { FakeModel } from './openai-agents-fake-model.js';
import { recordedMessages, streamOf } from './recorded.js';

let emulator: FeishuEmulator;
let cards: ProgressCards;

beforeAll(async () => {
  emulator = await startFeishuEmulator({ apps: [{ appId: 'cli_adapters', appSecret: 'adapters-secret' }] });
  cards = createProgressCards({
    logger: silentLogger,
    env: {},
    channels: [feishu({ appId: 'cli_adapters', appSecret: 'adapters-secret', domain: emulator.baseUrl, receiveId: 'oc_team' })],
  });
});
afterAll(async () => {
  await cards.shutdown();
  await emulator.close();
});

/** The final Feishu card of `card` as text, once the emulator accepted it. */
async function finalCard(card: ProgressCard): Promise<string> {
  const final = await card.finalDelivery;
  expect(final).toMatchObject({ ok: true });
  return JSON.stringify(emulator.message(final.message!.id)!.card);
}

const open = () => cards.open('feishu', undefined, { locale: 'en' });

describe('adapters on the Feishu emulator', () => {
  it('AI SDK: tool line with its result, answer, usage', async () => {
    const usage = (input: number, output: number) => ({ inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
    const stream = (parts: Record<string, unknown>[]) => ({ stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }) }) as any;
    const model = new MockLanguageModelV3({
      modelId: 'mock-model',
      doStream: [
        stream([{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'c1', toolName: 'run_tests', input: '{"suite":"unit"}' }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(1500, 20) }]),
        stream([{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'All 212 tests pass.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(1600, 9) }]),
      ],
    });
    const runTests = tool({ inputSchema: z.object({ suite: z.string() }), execute: async () => '212 passed' });
    const card = open();
    const result = streamText({ model, tools: { run_tests: runTests }, stopWhen: stepCountIs(3), prompt: 'Run the tests' });
    expect(await mirrorAiSdk(result.fullStream, card, { title: 'Run the tests' })).toEqual({ status: 'completed' });
    const shown = await finalCard(card);
    for (const text of ['Run the tests', 'run_tests', '212 passed', 'All 212 tests pass.', 'mock-model', '3.1k']) expect(shown).toContain(text);
  });

  it('Claude Agent SDK: the recorded query() run', async () => {
    const messages = recordedMessages('claude-stream-json-pr52.log');
    const card = open();
    expect(await mirrorClaudeAgent(streamOf(messages), card, { title: 'Fix issue 52' })).toEqual({ status: 'completed' });
    const shown = await finalCard(card);
    const answer = String(messages.find((m) => m.type === 'result')!.result).trim();
    for (const text of ['Fix issue 52', 'Bash', 'Read', answer.slice(0, 40).replace(/\n.*/s, '')]) expect(shown).toContain(text);
  });

  it('OpenAI Agents SDK: a tool call and the answer from a fake model', async () => {
    const lookup = agentTool({ name: 'lookup_order', description: 'order lookup', parameters: z.object({ orderId: z.string() }), execute: async ({ orderId }) => `order ${orderId}: shipped` });
    const model = new FakeModel([{ toolCalls: [{ callId: 'call_1', name: 'lookup_order', arguments: '{"orderId":"A17"}' }] }, { text: 'Order A17 has shipped.' }]);
    const agent = new Agent({ name: 'Support', model, tools: [lookup] });
    const card = open();
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Where is A17?', { stream: true });
    expect(await mirrorOpenAIAgents(result, card, { title: 'Where is A17?' })).toEqual({ status: 'completed' });
    const shown = await finalCard(card);
    for (const text of ['lookup_order', 'order A17: shipped', 'Order A17 has shipped.']) expect(shown).toContain(text);
  });

  it('Codex SDK: the recorded runStreamed() turn', async () => {
    const events = recordedMessages('codex-exec-json.log');
    const firstTurn = events.slice(0, events.findIndex((e) => e.type === 'turn.completed') + 1);
    const card = open();
    expect(await mirrorCodex(streamOf(firstTurn), card, { title: 'Add logging' })).toEqual({ status: 'completed' });
    const shown = await finalCard(card);
    for (const text of ['Add logging', 'exec_command', 'file_change', 'in 177k']) expect(shown).toContain(text);
  });
});
