import { describe, expect, it } from 'vitest';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { mirrorAgentToolStream, mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { FakeModel } from './openai-agents-fake-model.js';
import { memoryHarness } from './harness.js';

const runner = new Runner({ tracingDisabled: true });

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks up an order',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => `order ${orderId}: shipped`,
});

describe('mirrorOpenAIAgents (fake model)', () => {
  it('shows the tool call with its output, the streamed answer and the usage of both model calls', async () => {
    const model = new FakeModel([{ toolCalls: [{ callId: 'call_1', name: 'lookup_order', arguments: '{"orderId":"A17"}' }] }, { text: 'Order A17 has shipped.' }]);
    const agent = new Agent({ name: 'Support', instructions: 'Help with orders.', model, tools: [lookup] });
    const h = memoryHarness();
    const card = h.open();
    const result = await runner.run(agent, 'Where is order A17?', { stream: true });
    const outcome = await mirrorOpenAIAgents(result, card, { title: 'Where is order A17?', model: 'fake-model' });
    expect(outcome.status).toBe('completed');
    const payload = await h.finalPayload(card);
    expect(payload).toMatchObject({ status: 'completed', title: 'Where is order A17?', answer: 'Order A17 has shipped.' });
    expect(payload.tools).toHaveLength(1);
    expect(payload.tools[0]).toContain('lookup_order');
    expect(payload.tools[0]).toContain('order A17: shipped');
    expect(card.view().footer).toMatchObject({ inputTokens: 1600, outputTokens: 60, model: 'fake-model' });
    await h.cards.shutdown();
  });

  it('a tool that needs approval leaves the card waiting for it', async () => {
    const guarded = tool({ name: 'refund', description: 'Refunds', parameters: z.object({ orderId: z.string() }), needsApproval: true, execute: async () => 'refunded' });
    const model = new FakeModel([{ toolCalls: [{ callId: 'call_r', name: 'refund', arguments: '{"orderId":"A17"}' }] }, { text: 'Refunded.' }]);
    const agent = new Agent({ name: 'Support', model, tools: [guarded] });
    const h = memoryHarness();
    const card = h.open();
    const result = await runner.run(agent, 'Refund A17', { stream: true });
    const outcome = await mirrorOpenAIAgents(result, card);
    expect(outcome.status).toBe('waiting');
    expect(card.view().waitingFor).toBe('Approve refund?');
    await h.cards.shutdown();
  });

  it('a model that throws fails the card', async () => {
    const broken = new FakeModel([{ text: 'x' }]);
    broken.getStreamedResponse = async function* () {
      yield { type: 'response_started' as const };
      throw new Error('429 rate limit reached');
    };
    const agent = new Agent({ name: 'Support', model: broken });
    const h = memoryHarness();
    const card = h.open();
    const result = await runner.run(agent, 'hi', { stream: true });
    const outcome = await mirrorOpenAIAgents(result, card).catch(() => ({ status: card.status, error: card.view().error }));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toContain('429 rate limit reached');
    await h.cards.shutdown();
  });
});

describe('an agent used as a tool (agent.asTool) shows as a subagent', () => {
  it("its tool calls are folded under the outer call that started it (parentCallId = the SDK's toolCall.callId)", async () => {
    const researcher = new Agent({
      name: 'Researcher',
      model: new FakeModel([{ toolCalls: [{ callId: 'call_inner', name: 'lookup_order', arguments: '{"orderId":"B2"}' }] }, { text: 'B2 shipped yesterday.' }]),
      tools: [lookup],
    });
    const h = memoryHarness();
    const card = h.open();
    const research = researcher.asTool({ toolName: 'research', toolDescription: 'Researches an order', onStream: mirrorAgentToolStream(card) });
    const model = new FakeModel([{ toolCalls: [{ callId: 'call_outer', name: 'research', arguments: '{"input":"Where is B2?"}' }] }, { text: 'B2 shipped yesterday.' }]);
    const agent = new Agent({ name: 'Support', model, tools: [research] });
    const result = await runner.run(agent, 'Where is B2?', { stream: true });
    const outcome = await mirrorOpenAIAgents(result, card, { title: 'Where is B2?' });
    expect(outcome.status).toBe('completed');
    const tools = card.view().tools;
    const outer = tools.find((t) => t.callId === 'call_outer');
    const inner = tools.find((t) => t.callId === 'call_inner');
    expect(outer).toBeDefined();
    expect(inner).toMatchObject({ parentCallId: 'call_outer', state: 'finished', summary: 'order B2: shipped' });
    expect(outer!.subagentTools).toBe(1);
    await h.cards.shutdown();
  });
});
