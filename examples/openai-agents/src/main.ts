// An OpenAI Agents SDK run mirrored onto a live card: `npm start -w examples/openai-agents`.
// Default: a scripted fake model (no network, no key). With OPENAI_API_KEY set, a real model
// (OPENAI_MODEL, default `gpt-4.1-mini`). The tool needs approval: the card asks (Approve / Deny),
// and the run goes on after the click (on the emulator: in the preview page the example prints).
import { Agent, Runner, tool, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { approveOnCard, mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { z } from 'zod';
import { exampleCards } from '@progresscard/example-kit';

/** A fake model: first a call to lookup_order, then the answer. */
class ScriptedModel implements Model {
  private calls = 0;
  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    throw new Error('the example streams');
  }
  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
    const first = this.calls++ === 0;
    const usage = { requests: 1, inputTokens: 700, outputTokens: 25, totalTokens: 725 };
    yield { type: 'response_started' };
    await new Promise((r) => setTimeout(r, 800));
    if (first) {
      const output = [{ type: 'function_call' as const, id: 'fc_1', callId: 'call_1', name: 'lookup_order', arguments: '{"orderId":"A17"}', status: 'completed' as const }];
      yield { type: 'response_done', response: { id: 'resp_1', usage, output } };
      return;
    }
    const text = 'Order A17 left the warehouse yesterday and arrives on Friday.';
    for (const word of text.split(/(?<= )/)) yield { type: 'output_text_delta', delta: word };
    const output = [{ type: 'message' as const, id: 'msg_2', role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text }] }];
    yield { type: 'response_done', response: { id: 'resp_2', usage, output } };
  }
}

const lookupOrder = tool({ name: 'lookup_order', description: 'Where an order is', parameters: z.object({ orderId: z.string() }), needsApproval: true, execute: async ({ orderId }) => `order ${orderId}: shipped, arrives Friday` });
const agent = new Agent({ name: 'Support', instructions: 'Answer questions about orders.', tools: [lookupOrder], model: process.env.OPENAI_API_KEY ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : new ScriptedModel() });

const prompt = 'Where is my order A17?';
const example = await exampleCards();
const card = example.open(prompt);
const runner = new Runner({ tracingDisabled: !process.env.OPENAI_API_KEY });
let result = await runner.run(agent, prompt, { stream: true });
await mirrorOpenAIAgents(result, card, { title: prompt });
// Interrupted for the tool's approval: ask on the card (deny after 2 minutes), then resume on the same card.
const approvalTimeoutMs = 120_000;
while (result.interruptions.length > 0) {
  example.announceApprovalWait(card, approvalTimeoutMs);
  const decisions = await approveOnCard(result, card, { timeoutMs: approvalTimeoutMs });
  console.log(decisions.map((d) => `${d.label}${d.by ? ` by ${d.by.id}` : ''}${d.timedOut ? ' (timed out)' : ''}`).join(', '));
  result = await runner.run(agent, result.state, { stream: true });
  await mirrorOpenAIAgents(result, card, { title: prompt });
}
await example.finish(card);
