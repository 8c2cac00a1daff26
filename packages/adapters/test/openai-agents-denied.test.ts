import { describe, expect, it } from 'vitest';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { FakeModel } from './openai-agents-fake-model.js';
import { memoryHarness } from './harness.js';

const runner = new Runner({ tracingDisabled: true });

function guardedAgent() {
  const guarded = tool({ name: 'lookup_order', description: 'Looks up an order', parameters: z.object({ orderId: z.string() }), needsApproval: true, execute: async () => 'order A17: shipped' });
  const model = new FakeModel([{ toolCalls: [{ callId: 'call_d', name: 'lookup_order', arguments: '{"orderId":"A17"}' }] }, { text: 'I was not allowed to look it up.' }]);
  return new Agent({ name: 'Support', model, tools: [guarded] });
}

/**
 * A tool call the user denied is answered by the SDK with the output "Tool execution was not
 * approved." (`TOOL_APPROVAL_REJECTION_MESSAGE` of @openai/agents-core 0.14), or the message given
 * to `state.reject(item, { message })`. The tool never ran: its line must not read "done".
 */
describe('mirrorOpenAIAgents: a denied tool call', () => {
  it.each([
    ['the SDK default message', undefined],
    ['a message of its own', 'Refused by the on-call lead'],
  ])('shows as denied, not done (%s)', async (_, message) => {
    const agent = guardedAgent();
    const h = memoryHarness();
    const card = h.open();
    const first = await runner.run(agent, 'Where is A17?', { stream: true });
    expect((await mirrorOpenAIAgents(first, card)).status).toBe('waiting');
    for (const item of first.interruptions) first.state.reject(item, message ? { message } : undefined);
    const resumed = await runner.run(agent, first.state, { stream: true });
    expect((await mirrorOpenAIAgents(resumed, card)).status).toBe('completed');
    const payload = await h.finalPayload(card);
    expect(payload.tools).toHaveLength(1);
    expect(payload.tools[0]).toContain('lookup_order');
    expect(payload.tools[0]).not.toMatch(/\bdone\b/);
    expect(payload.tools[0]).toMatch(/denied/);
    if (message) expect(payload.tools[0]).toContain(message);
    expect(card.view().tools[0]).toMatchObject({ callId: 'call_d', state: 'failed' });
    await h.cards.shutdown();
  });
});
