/**
 * The Vercel AI SDK (`ai` 6) with its real OpenAI provider (`@ai-sdk/openai` 3, the Responses API)
 * against the local Responses server of ./mock-openai.ts on 127.0.0.1: a shell tool that really
 * sleeps, a streamed answer with usage, a response that fails mid-stream, a request refused with a
 * 5xx, an abort while the tool sleeps and one while the model stream hangs. Each case checks what the
 * product gets back (the mirror's outcome) and what the chat was shown last (the delivered final).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenAI } from '@ai-sdk/openai';
import { stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { ProgressCard } from '@progresscard/core';
import { mirrorAiSdk } from '@progresscard/adapters/ai-sdk';
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
  description: 'Runs a shell command',
  inputSchema: z.object({ command: z.string() }),
  // The run's abort signal reaches the child process: an aborted run kills the sleep.
  execute: async ({ command }, { abortSignal }) => (await run('/bin/sh', ['-c', command], abortSignal ? { signal: abortSignal } : {})).stdout,
});

/** `streamText` logs stream errors to the console unless told otherwise; the card shows them. */
const quiet = () => undefined;

async function modelOn(turns: ModelTurn[]) {
  const server = await mockOpenAIResponses(turns);
  servers.push(server);
  return createOpenAI({ baseURL: `${server.baseUrl}/v1`, apiKey: 'sk-loopback' }).responses('gpt-5.4-mini');
}

/** Resolves once a tool line of `card` shows running; rejects if `mirrored` settles first. */
function untilToolRuns(card: ProgressCard, mirrored: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (!card.view().tools.some((t) => t.state === 'running')) return;
      clearInterval(timer);
      resolve();
    }, 20);
    const ended = () => {
      clearInterval(timer);
      reject(new Error(`the run ended before a tool ran: ${card.view().status}`));
    };
    mirrored.then(ended, ended);
  });
}

describe('AI SDK with @ai-sdk/openai against a local OpenAI Responses server', () => {
  it('a sleeping shell call and a streamed answer: the tool line, the answer, model and tokens, a completed final', async () => {
    const model = await modelOn([{ tool: 'shell', input: { command: 'sleep 1 && echo done' } }, { text: 'The check printed done.' }]);
    const card = h.open();
    const result = streamText({ model, tools: { shell }, stopWhen: stepCountIs(5), prompt: 'Run the check' });
    expect(await mirrorAiSdk(result.fullStream, card, { title: 'Run the check' })).toEqual({ status: 'completed' });
    const view = card.view();
    expect(view.tools.map((t) => [t.name, t.detail, t.state, t.summary])).toEqual([['shell', 'sleep 1 && echo done', 'finished', 'done']]);
    expect(view.tools[0]!.finishedAt! - view.tools[0]!.startedAt!).toBeGreaterThanOrEqual(900);
    expect(view.answer).toBe('The check printed done.');
    expect(view.round).toBe(2);
    expect(view.footer).toMatchObject({ model: 'gpt-5.4-mini', inputTokens: 3000, outputTokens: 84 });
    expect(await h.finalPayload(card)).toMatchObject({ status: 'completed', title: 'Run the check', answer: 'The check printed done.' });
  }, 60_000);

  it('a response that fails mid-stream: a failed final with the model\'s message, not its JSON', async () => {
    const model = await modelOn([{ text: 'The check prin', errorAfter: 14 }]);
    const card = h.open();
    const result = streamText({ model, prompt: 'Answer', onError: quiet });
    const outcome = await mirrorAiSdk(result.fullStream, card);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/overloaded/i);
    expect(outcome.error).not.toMatch(/[{}]/);
    const final = await h.finalPayload(card);
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(/overloaded/i);
  }, 60_000);

  it('a request refused with a 5xx (retries exhausted): a failed final with the server\'s message', async () => {
    const model = await modelOn([{ status: 503, message: 'Service temporarily unavailable' }]);
    const card = h.open();
    const result = streamText({ model, prompt: 'Answer', maxRetries: 0, onError: quiet });
    const outcome = await mirrorAiSdk(result.fullStream, card);
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.error).toMatch(/Service temporarily unavailable/);
    expect((await h.finalPayload(card)).status).toBe('failed');
  }, 60_000);

  it('an abort while the shell call sleeps: a cancelled final, the call interrupted', async () => {
    const model = await modelOn([{ tool: 'shell', input: { command: 'echo started && sleep 30' } }]);
    const abort = new AbortController();
    const card = h.open();
    const result = streamText({ model, tools: { shell }, stopWhen: stepCountIs(5), prompt: 'Sleep', abortSignal: abort.signal });
    const mirrored = mirrorAiSdk(result.fullStream, card, { signal: abort.signal }).catch((error: unknown) => ({ status: card.view().status, thrown: error }));
    await untilToolRuns(card, mirrored);
    abort.abort();
    expect((await mirrored).status).toBe('cancelled');
    expect(card.view().tools.map((t) => [t.name, t.state])).toEqual([['shell', 'interrupted']]);
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 60_000);

  it('an abort while the model stream hangs: a cancelled final', async () => {
    const model = await modelOn([{ hang: true }]);
    const abort = new AbortController();
    const card = h.open();
    const result = streamText({ model, prompt: 'Answer', abortSignal: abort.signal });
    const mirrored = mirrorAiSdk(result.fullStream, card, { signal: abort.signal }).catch(() => ({ status: card.view().status }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    abort.abort();
    expect((await mirrored).status).toBe('cancelled');
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 60_000);
});
