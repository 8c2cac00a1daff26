/**
 * The OpenAI Agents SDK with its real OpenAI Responses model (the `openai` client) against the local
 * Responses server of ./mock-openai.ts on 127.0.0.1: a shell tool that really sleeps, a streamed
 * answer with usage, a response that fails mid-stream, an abort. Cards asserted as a user sees them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { memoryHarness } from '../harness.js';
import { mockOpenAIResponses } from './mock-openai.js';
import type { MockModelServer, ModelTurn } from './mock-anthropic.js';

const run = promisify(execFile);
const h = memoryHarness();
const servers: MockModelServer[] = [];
afterAll(async () => {
  await h.cards.shutdown();
  await Promise.all(servers.map((server) => server.close()));
});

const shell = tool({
  name: 'shell',
  description: 'Runs a shell command',
  parameters: z.object({ command: z.string() }),
  // The run's abort signal (agents-core's ToolCallDetails.signal) reaches the child process.
  execute: async ({ command }, _context, details) => (await run('/bin/sh', ['-c', command], details?.signal ? { signal: details.signal } : {})).stdout,
});

async function agentOn(turns: ModelTurn[]) {
  const server = await mockOpenAIResponses(turns);
  servers.push(server);
  const provider = new OpenAIProvider({ baseURL: `${server.baseUrl}/v1`, apiKey: 'sk-loopback', useResponses: true });
  return { agent: new Agent({ name: 'Checker', model: 'gpt-5.4-mini', tools: [shell] }), runner: new Runner({ tracingDisabled: true, modelProvider: provider }) };
}

describe('OpenAI Agents SDK against a local OpenAI Responses server', () => {
  it('a sleeping shell call and a streamed answer: the tool line, the answer, the model from the response, rounds as model calls', async () => {
    const { agent, runner } = await agentOn([{ tool: 'shell', input: { command: 'sleep 1 && echo done' } }, { text: 'The check printed done.' }]);
    const card = h.open();
    const result = await runner.run(agent, 'Run the check', { stream: true });
    expect(await mirrorOpenAIAgents(result, card, { title: 'Run the check' })).toEqual({ status: 'completed' });
    const view = card.view();
    expect(view.tools.map((t) => [t.name, t.detail, t.state, t.summary])).toEqual([['shell', 'sleep 1 && echo done', 'finished', 'done']]);
    expect(view.tools[0]!.finishedAt! - view.tools[0]!.startedAt!).toBeGreaterThanOrEqual(900);
    expect(view.answer).toBe('The check printed done.');
    expect(view.round).toBe(2);
    expect(view.footer).toMatchObject({ model: 'gpt-5.4-mini', inputTokens: 3000, outputTokens: 84 });
    expect(await h.finalPayload(card)).toMatchObject({ status: 'completed', title: 'Run the check', answer: 'The check printed done.' });
  }, 30_000);

  it('a response that fails mid-stream and is then answered: the card shows the final answer, not the partial copies', async () => {
    // @openai/agents 0.14.3 runs another turn after a response.failed: the partial text was streamed.
    const { agent, runner } = await agentOn([{ text: 'The check prin', errorAfter: 14 }, { text: 'The check printed done.' }]);
    const card = h.open();
    const result = await runner.run(agent, 'Answer', { stream: true });
    const outcome = await mirrorOpenAIAgents(result, card).catch(() => ({ status: card.view().status, error: card.view().error }));
    expect(outcome.status).toBe('completed');
    expect(card.view().answer).toBe('The check printed done.');
    expect(await h.finalPayload(card)).toMatchObject({ status: 'completed', answer: 'The check printed done.' });
  }, 30_000);

  it('a model that keeps failing mid-stream fails the card with the stream\'s cause', async () => {
    const failing: ModelTurn = { text: 'The check prin', errorAfter: 14 };
    const { agent, runner } = await agentOn(Array.from({ length: 12 }, () => failing));
    const card = h.open();
    const result = await runner.run(agent, 'Answer', { stream: true, maxTurns: 3 });
    const outcome = await mirrorOpenAIAgents(result, card).catch(() => ({ status: card.view().status, error: card.view().error }));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/overloaded|max turns/i);
    expect((await h.finalPayload(card)).status).toBe('failed');
  }, 30_000);

  it('an abort while the model stream hangs ends the card cancelled, not completed', async () => {
    const { agent, runner } = await agentOn([{ hang: true }]);
    const card = h.open();
    const abort = new AbortController();
    const result = await runner.run(agent, 'Answer', { stream: true, signal: abort.signal });
    const mirrored = mirrorOpenAIAgents(result, card, { signal: abort.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    abort.abort();
    await mirrored;
    expect(card.view().status).toBe('cancelled');
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 30_000);

  it('an abort while the shell tool sleeps: a cancelled final, the call interrupted', async () => {
    const { agent, runner } = await agentOn([{ tool: 'shell', input: { command: 'echo started && sleep 30' } }]);
    const card = h.open();
    const abort = new AbortController();
    const result = await runner.run(agent, 'Sleep', { stream: true, signal: abort.signal });
    const mirrored = mirrorOpenAIAgents(result, card, { signal: abort.signal }).catch(() => undefined);
    while (!card.view().tools.some((t) => t.state === 'running')) {
      if (card.view().status !== 'running') throw new Error(`the run ended before the tool ran: ${card.view().status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    abort.abort();
    await mirrored;
    expect(card.view().tools.map((t) => [t.name, t.state])).toEqual([['shell', 'interrupted']]);
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 30_000);
});
