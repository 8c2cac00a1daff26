// A Vercel AI SDK run mirrored onto a live card: `npm start -w examples/ai-sdk`.
// Default: the AI SDK's mock model (no network, no key). With AI_GATEWAY_API_KEY set, a real model
// through the AI Gateway (AI_MODEL, default `openai/gpt-4.1-mini`).
import { mirrorAiSdk } from '@progresscard/adapters/ai-sdk';
import { stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { exampleCards } from '@progresscard/example-kit';

const usage = (input: number, output: number) => ({ inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
const stream = (parts: Record<string, unknown>[]) => ({
  stream: new ReadableStream({ async start(c) { for (const part of parts) { c.enqueue(part); await new Promise((r) => setTimeout(r, 300)); } c.close(); } }),
});

/** A scripted model: one step calls get_weather, the next answers. */
function mockModel(): LanguageModel {
  return new MockLanguageModelV3({
    modelId: 'mock-model',
    doStream: [
      stream([{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(900, 18) }]),
      stream([{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'It is 21 °C and sunny ' }, { type: 'text-delta', id: 't', delta: 'in Paris.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(960, 12) }]),
    ],
  }) as unknown as LanguageModel;
}

const model: LanguageModel = process.env.AI_GATEWAY_API_KEY ? (process.env.AI_MODEL ?? 'openai/gpt-4.1-mini') : mockModel();
const getWeather = tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 21, sky: 'sunny' }) });

const prompt = 'What is the weather in Paris?';
const example = await exampleCards();
const card = example.open(prompt);
const result = streamText({ model, tools: { get_weather: getWeather }, stopWhen: stepCountIs(4), prompt });
await mirrorAiSdk(result.fullStream, card, { title: prompt });
await example.finish(card);
