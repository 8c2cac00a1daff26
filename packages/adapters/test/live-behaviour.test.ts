/**
 * What a live SDK run shows that a recorded one rarely does: aborts, retries, background tasks,
 * the first sign of life, errors that are plain objects, and model calls as rounds.
 * Message shapes follow the installed SDKs' types (`@anthropic-ai/claude-agent-sdk` 0.3.332
 * `SDKMessage`, `@openai/agents` 0.14.3 `RunStreamEvent`, `ai` 6 stream parts).
 */
import { describe, expect, it } from 'vitest';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { mirrorAiSdk } from '@progresscard/adapters/ai-sdk';
import { mirrorClaudeAgent } from '@progresscard/adapters/claude-agent-sdk';
import { mirrorCodex } from '@progresscard/adapters/codex-sdk';
import { mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { FakeModel } from './openai-agents-fake-model.js';
import { memoryHarness } from './harness.js';

const init = { type: 'system', subtype: 'init', model: 'claude-sonnet-4-5', session_id: 's', tools: [], cwd: '/tmp' };
const assistant = (id: string, content: unknown[]) => ({ type: 'assistant', parent_tool_use_id: null, session_id: 's', message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content, usage: { input_tokens: 10, output_tokens: 5 } } });
const result = { type: 'result', subtype: 'success', is_error: false, result: 'Done.', duration_ms: 1000, session_id: 's' };

/** Yields `items`, then waits for `gate` before the rest; `onYield` sees each index as it goes. */
async function* gated<T>(items: readonly T[], gate: Promise<void>, at: number, tail: readonly T[] = []): AsyncGenerator<T> {
  for (const item of items.slice(0, at)) yield item;
  await gate;
  for (const item of [...items.slice(at), ...tail]) yield item;
}

describe('Claude Agent SDK, live', () => {
  it('system/init puts the card up at once, with the model, before any content', async () => {
    const h = memoryHarness();
    const card = h.open();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const done = mirrorClaudeAgent(gated([init, assistant('m1', [{ type: 'text', text: 'Done.' }]), result], gate, 1), card, { title: 'Think hard' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(card.view()).toMatchObject({ status: 'running', title: 'Think hard' });
    expect(card.view().footer.model).toBe('claude-sonnet-4-5');
    release();
    expect(await done).toEqual({ status: 'completed' });
    await h.cards.shutdown();
  });

  it('api_retry shows a running retry line until the model answers; background tasks are task lines', async () => {
    const h = memoryHarness();
    const card = h.open();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const retry = { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 2000, error_status: 529, error: 'overloaded', session_id: 's' };
    const messages = [
      init,
      assistant('m1', [{ type: 'tool_use', id: 'toolu_bg', name: 'Bash', input: { command: 'npm run build', run_in_background: true } }]),
      { type: 'user', parent_tool_use_id: null, session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bg', content: 'Command running in background with ID: b1' }] } },
      { type: 'system', subtype: 'task_started', task_id: 'b1', tool_use_id: 'toolu_bg', description: 'npm run build', task_type: 'local_bash', session_id: 's' },
      retry,
      assistant('m2', [{ type: 'text', text: 'Waiting for the build.' }]),
      { type: 'system', subtype: 'task_notification', task_id: 'b1', tool_use_id: 'toolu_bg', status: 'failed', output_file: '', summary: 'build failed: exit 2', session_id: 's' },
      result,
    ];
    const done = mirrorClaudeAgent(gated(messages, gate, 5), card);
    await new Promise((resolve) => setImmediate(resolve));
    const running = card.view().tools.filter((t) => t.state === 'running').map((t) => `${t.name}: ${t.detail}`);
    expect(running).toEqual(['task: npm run build', expect.stringMatching(/^retry: attempt 1 of 10 · HTTP 529 · in 2 s/)]);
    release();
    await done;
    const lines = card.view().tools.map((t) => [t.name, t.state, t.summary]);
    expect(lines).toEqual([
      ['Bash', 'finished', 'Command running in background with ID: b1'],
      ['task', 'failed', 'build failed: exit 2'],
      ['retry', 'failed', 'retried'],
    ]);
    expect(card.view().footer).toMatchObject({ failedToolCount: 2 });
    await h.cards.shutdown();
  });

  it("Claude Code's synthetic API error text is not the answer; the result's error is", async () => {
    const h = memoryHarness();
    const card = h.open();
    const synthetic = { type: 'assistant', parent_tool_use_id: null, session_id: 's', message: { id: 'syn', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}' }], usage: { input_tokens: 0, output_tokens: 0 } } };
    const failed = { type: 'result', subtype: 'success', is_error: true, result: 'API Error: 500 Internal server error', duration_ms: 10, session_id: 's' };
    const outcome = await mirrorClaudeAgent((async function* () { yield init; yield assistant('m1', [{ type: 'text', text: 'Let me look.' }]); yield synthetic; yield failed; })(), card);
    expect(outcome).toEqual({ status: 'failed', error: 'API Error: 500 Internal server error' });
    expect(card.view().answer).toBe('Let me look.');
    await h.cards.shutdown();
  });

  it("an abort ends the card cancelled: the SDK's AbortError (name 'Error', errorClass 'aborted') or the product's signal", async () => {
    // What the SDK throws on abort: its AbortError class, name "Error", with errorClass "aborted" attached.
    const sdkAbort = Object.assign(new Error('Claude Code process aborted by user'), { errorClass: 'aborted' });
    for (const [error, signal] of [
      [sdkAbort, undefined],
      [new Error('Claude Code process exited with code 143'), AbortSignal.abort()],
    ] as const) {
      const h = memoryHarness();
      const card = h.open();
      const stream = (async function* () { yield init; throw error; })();
      await expect(mirrorClaudeAgent(stream, card, signal ? { signal } : {})).rejects.toBe(error);
      expect(card.view().status).toBe('cancelled');
      await h.cards.shutdown();
    }
    // Any other error still fails the card.
    const h = memoryHarness();
    const card = h.open();
    await expect(mirrorClaudeAgent((async function* () { yield init; throw new Error('spawn ENOENT'); })(), card)).rejects.toThrow();
    expect(card.view().status).toBe('failed');
    await h.cards.shutdown();
  });
});

describe('OpenAI Agents SDK, live', () => {
  const lookup = tool({ name: 'lookup_order', description: 'order lookup', parameters: z.object({ orderId: z.string() }), execute: async () => 'shipped' });

  it('rounds count model calls: a tool call and an answer are rounds 1 and 2, not 3', async () => {
    const model = new FakeModel([{ toolCalls: [{ callId: 'c1', name: 'lookup_order', arguments: '{"orderId":"A1"}' }] }, { text: 'Shipped.' }]);
    const h = memoryHarness();
    const card = h.open();
    const rounds: number[] = [];
    const push = card.push.bind(card);
    (card as { push: typeof card.push }).push = (event: any) => {
      if (event.type === 'round.started') rounds.push(event.round);
      return push(event);
    };
    await mirrorOpenAIAgents(await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model, tools: [lookup] }), 'Where is A1?', { stream: true }), card);
    expect(rounds).toEqual([1, 2]);
    expect(card.view().round).toBe(2);
    await h.cards.shutdown();
  });

  it('an aborted run (the stream just ends, result.cancelled) ends the card cancelled, not completed', async () => {
    const slow = new FakeModel([{ text: 'x' }]);
    const controller = new AbortController();
    slow.getStreamedResponse = async function* () {
      yield { type: 'response_started' as const, providerData: { response: { model: 'gpt-5.4-mini' } } };
      yield { type: 'output_text_delta' as const, delta: 'Partial ' };
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield { type: 'output_text_delta' as const, delta: 'never' };
    };
    const h = memoryHarness();
    const card = h.open();
    const run = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model: slow }), 'hi', { stream: true, signal: controller.signal });
    const outcome = await mirrorOpenAIAgents(run, card).catch(() => ({ status: card.status }));
    expect(outcome.status).toBe('cancelled');
    expect(card.view().footer.model).toBe('gpt-5.4-mini');
    await h.cards.shutdown();
  });

  it("an error event mid-answer keeps the stream's cause, not the SDK's generic message", async () => {
    const broken = new FakeModel([{ text: 'x' }]);
    broken.getStreamedResponse = async function* () {
      yield { type: 'response_started' as const };
      yield { type: 'output_text_delta' as const, delta: 'The answer is' };
      yield { type: 'model' as const, event: { type: 'error', message: 'The server had an error while processing your request.' } };
    };
    const h = memoryHarness();
    const card = h.open();
    const run = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model: broken }), 'hi', { stream: true });
    const outcome = await mirrorOpenAIAgents(run, card).catch(() => ({ status: card.status, error: card.view().error }));
    expect(outcome).toMatchObject({ status: 'failed', error: 'The server had an error while processing your request.' });
    await h.cards.shutdown();
  });
});

describe('AI SDK and Codex SDK, live', () => {
  it('an AI SDK error part holding a plain object shows its message, not JSON', async () => {
    const h = memoryHarness();
    const card = h.open();
    const parts = [{ type: 'start' }, { type: 'start-step' }, { type: 'error', error: { message: 'The model is overloaded. Please try again later.', type: 'error', code: 'overloaded' } }];
    const outcome = await mirrorAiSdk((async function* () { yield* parts; })(), card);
    expect(outcome).toEqual({ status: 'failed', error: 'The model is overloaded. Please try again later.' });
    await h.cards.shutdown();
  });

  it('Codex: the card is up at thread.started; commands read like watch names them; an abort is cancelled', async () => {
    const h = memoryHarness();
    const card = h.open();
    const controller = new AbortController();
    const events = (async function* () {
      yield { type: 'thread.started', thread_id: 't1' };
      yield { type: 'turn.started' };
      yield { type: 'item.started', item: { id: 'i1', type: 'command_execution', command: "/bin/bash -lc 'sleep 7 && echo done'", aggregated_output: '', status: 'in_progress' } };
      controller.abort();
      throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
    })();
    await expect(mirrorCodex(events, card, { title: 'Sleep', model: 'gpt-5.5-codex', signal: controller.signal })).rejects.toThrow('aborted');
    const view = card.view();
    expect(view.status).toBe('cancelled');
    expect(view.tools.map((t) => `${t.name}: ${t.detail}`)).toEqual(['exec_command: sleep 7 && echo done']);
    expect(view.footer.model).toBe('gpt-5.5-codex');
    await h.cards.shutdown();
  });
});
