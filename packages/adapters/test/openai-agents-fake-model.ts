import { Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';

/** One scripted model turn: tool calls to make, or text to answer. */
export type FakeTurn = { readonly toolCalls: readonly { callId: string; name: string; arguments: string }[] } | { readonly text: string };

/**
 * A Model for the OpenAI Agents SDK that plays scripted turns (no network): each call streams
 * `response_started`, the text deltas, then `response_done` with the turn's output and usage.
 */
export class FakeModel implements Model {
  private turn = 0;

  constructor(private readonly turns: readonly FakeTurn[], private readonly usage = { inputTokens: 800, outputTokens: 30 }) {}

  private response(): ModelResponse & { readonly text?: string } {
    const turn = this.turns[Math.min(this.turn++, this.turns.length - 1)]!;
    const output: ModelResponse['output'] =
      'text' in turn
        ? [{ type: 'message', id: `msg_${this.turn}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }]
        : turn.toolCalls.map((call) => ({ type: 'function_call' as const, id: `fc_${call.callId}`, callId: call.callId, name: call.name, arguments: call.arguments, status: 'completed' as const }));
    return { ...('text' in turn ? { text: turn.text } : {}), output, usage: new Usage({ requests: 1, ...this.usage, totalTokens: this.usage.inputTokens + this.usage.outputTokens }), responseId: `resp_${this.turn}` };
  }

  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    return this.response();
  }

  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = this.response();
    yield { type: 'response_started' };
    for (const word of response.text?.split(/(?<= )/) ?? []) yield { type: 'output_text_delta', delta: word };
    yield {
      type: 'response_done',
      response: {
        id: response.responseId!,
        usage: { requests: 1, inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens, totalTokens: response.usage.totalTokens },
        output: response.output as any,
      },
    };
  }
}
