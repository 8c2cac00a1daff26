import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { mirrorAiSdk } from '@progresscard/adapters/ai-sdk';
import { memoryHarness } from './harness.js';


const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function streamOf(parts: Record<string, unknown>[]) {
  return { stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } }) } as any;
}

/** Step 1 reasons and calls get_weather (input streamed); step 2 answers. */
function weatherModel() {
  return new MockLanguageModelV3({
    modelId: 'mock-weather',
    doStream: [
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'k1' },
        { type: 'reasoning-delta', id: 'k1', delta: 'The user wants the weather.' },
        { type: 'reasoning-end', id: 'k1' },
        { type: 'tool-input-start', id: 'call-1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'call-1', delta: '"Paris"}' },
        { type: 'tool-input-end', id: 'call-1' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'get_weather', input: '{"city":"Paris"}' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(1200, 40) },
      ]),
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'It is 21 °C ' },
        { type: 'text-delta', id: 't1', delta: 'in Paris.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(1300, 12) },
      ]),
    ],
  });
}

const weather = tool({
  description: 'weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
afterEach(() => vi.useRealTimers());

/** Runs `mirror` while fake time moves on, until it settles. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  void promise.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < 200 && !done; i++) await vi.advanceTimersByTimeAsync(100);
  return promise;
}

/** Step 1 sets a plan (TodoWrite, input streamed) and writes a file; step 2 answers. */
function planningModel() {
  const todos = JSON.stringify({ todos: [{ content: 'Write notes', status: 'in_progress' }, { content: 'Review', status: 'pending' }] });
  const write = JSON.stringify({ path: 'notes.md', content: '# Notes\nline 2\n' });
  return new MockLanguageModelV3({
    modelId: 'mock-plan',
    doStream: [
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'tool-input-start', id: 'plan-1', toolName: 'TodoWrite' },
        { type: 'tool-input-delta', id: 'plan-1', delta: todos.slice(0, 20) },
        { type: 'tool-input-delta', id: 'plan-1', delta: todos.slice(20) },
        { type: 'tool-input-end', id: 'plan-1' },
        { type: 'tool-call', toolCallId: 'plan-1', toolName: 'TodoWrite', input: todos },
        { type: 'tool-call', toolCallId: 'write-1', toolName: 'write_file', input: write },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(100, 10) },
      ]),
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Notes written.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(120, 5) },
      ]),
    ],
  });
}

describe('mirrorAiSdk (ai 6, mock model)', () => {
  it('a TodoWrite tool is the card\'s plan, not a tool line; a write tool adds its file to the changed files', async () => {
    const h = memoryHarness();
    const card = h.open();
    const tools = {
      TodoWrite: tool({ inputSchema: z.object({ todos: z.array(z.object({ content: z.string(), status: z.string() })) }), execute: async () => 'ok' }),
      write_file: tool({ inputSchema: z.object({ path: z.string(), content: z.string() }), execute: async () => 'written' }),
    };
    const result = streamText({ model: planningModel(), tools, stopWhen: stepCountIs(3), prompt: 'Write notes' });
    await settle(mirrorAiSdk(result.fullStream, card));
    const view = card.view();
    expect(view.status).toBe('completed');
    expect(view.plan).toMatchObject({ done: 0, total: 2, items: [{ text: 'Write notes', status: 'in_progress' }, { text: 'Review', status: 'pending' }] });
    expect(view.tools.map((t) => t.name)).toEqual(['write_file']);
    expect(view.changedFiles).toEqual([{ path: 'notes.md', kind: 'modified', added: 2, removed: undefined }]);
    const payload = await settle(h.finalPayload(card));
    expect(payload.plan?.[0]).toBe('Plan · 0 / 2');
    expect(payload.changedFiles).toEqual(['1 file changed', 'notes.md (+2)']);
    await h.cards.shutdown();
  });

  it('shows the tool call with its result, the answer and the token usage of both steps', async () => {
    const h = memoryHarness();
    const card = h.open();
    const result = streamText({ model: weatherModel(), tools: { get_weather: weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Paris?' });
    const outcome = await settle(mirrorAiSdk(result.fullStream, card, { title: 'Weather in Paris?' }));
    expect(outcome).toEqual({ status: 'completed' });
    const payload = await settle(h.finalPayload(card));
    expect(payload.status).toBe('completed');
    expect(payload.title).toBe('Weather in Paris?');
    expect(payload.tools).toHaveLength(1);
    expect(payload.tools[0]).toContain('get_weather');
    expect(payload.tools[0]).toContain('"celsius":21');
    expect(payload.answer).toBe('It is 21 °C in Paris.');
    expect(payload.thinking).toContain('The user wants the weather.');
    const footer = card.view().footer;
    expect([footer.inputTokens, footer.outputTokens, footer.model]).toEqual([2500, 52, 'mock-weather']);
    expect(payload.footer).toContain('mock-weather');
    await settle(h.cards.shutdown()); // the finals are paced by the budget: let fake time run
  });

  it('a tool that throws shows as a failed tool line, and the run still answers', async () => {
    const h = memoryHarness();
    const card = h.open();
    const broken = tool({ inputSchema: z.object({ city: z.string() }), execute: async (): Promise<{ celsius: number }> => { throw new Error('weather service down'); } });
    const result = streamText({ model: weatherModel(), tools: { get_weather: broken }, stopWhen: stepCountIs(3), prompt: 'Weather?' });
    await settle(mirrorAiSdk(result.fullStream, card));
    const view = card.view();
    expect(view.tools.map((t) => [t.state, t.summary])).toEqual([['failed', 'weather service down']]);
    expect(view.status).toBe('completed');
    await settle(h.cards.shutdown()); // the finals are paced by the budget: let fake time run
  });

  it('a model error fails the card with the error text', async () => {
    const h = memoryHarness();
    const card = h.open();
    const model = new MockLanguageModelV3({ doStream: async () => { throw new Error('rate limited: 429'); } });
    const result = streamText({ model, prompt: 'hi', onError: () => undefined });
    const outcome = await settle(mirrorAiSdk(result.fullStream, card));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toContain('rate limited: 429');
    expect((await settle(h.finalPayload(card))).status).toBe('failed');
    await settle(h.cards.shutdown()); // the finals are paced by the budget: let fake time run
  });

  it('an aborted run is cancelled', async () => {
    const h = memoryHarness();
    const card = h.open();
    const abort = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Working on' });
            abort.abort();
          },
        }),
      }),
    });
    const result = streamText({ model, prompt: 'hi', abortSignal: abort.signal });
    const outcome = await settle(mirrorAiSdk(result.fullStream, card).catch(() => ({ status: card.status })));
    expect(outcome.status).toBe('cancelled');
    await settle(h.cards.shutdown()); // the finals are paced by the budget: let fake time run
  });
});
