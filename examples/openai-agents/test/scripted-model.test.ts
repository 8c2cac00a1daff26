import { Agent, Runner, type RunStreamEvent } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { lookupOrder } from '../src/lookup-order.js';
import { ScriptedModel } from '../src/scripted-model.js';

/** The example's run with the scripted model, its approval decided by `approve`: the final answer. */
async function answerAfter(approve: boolean): Promise<string> {
  const agent = new Agent({ name: 'Support', instructions: 'Answer questions about orders.', tools: [lookupOrder], model: new ScriptedModel(0) });
  const runner = new Runner({ tracingDisabled: true });
  let result = await runner.run(agent, 'Where is my order A17?', { stream: true });
  for await (const _event of result as AsyncIterable<RunStreamEvent>);
  await result.completed;
  expect(result.interruptions.map((item) => item.name)).toEqual(['lookup_order']);
  for (const item of result.interruptions) approve ? result.state.approve(item) : result.state.reject(item);
  result = await runner.run(agent, result.state, { stream: true });
  for await (const _event of result as AsyncIterable<RunStreamEvent>);
  await result.completed;
  return String(result.finalOutput);
}

describe('the OpenAI Agents example: the scripted model answers what happened to its tool call', () => {
  it('approved: the answer reports what the lookup found', async () => {
    expect(await answerAfter(true)).toBe('The lookup says: order A17 shipped yesterday and arrives on Friday.');
  });

  it('denied: the answer says the lookup did not run, and claims no delivery date', async () => {
    const answer = await answerAfter(false);
    expect(answer).toContain('it did not run');
    expect(answer).not.toMatch(/Friday|shipped/);
  });
});
