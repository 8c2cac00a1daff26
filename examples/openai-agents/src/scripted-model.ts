import type { AgentInputItem, Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';

/**
 * The example's fake model (no network, no key): its first answer calls `lookup_order` for order
 * A17; its next answer follows what became of that call. The tool needs approval, so the call runs
 * only after an Approve click: then the answer reports the tool's result; after Deny (or the
 * approval timeout) the SDK hands the model its rejection instead of a result, and the answer says
 * the lookup did not run.
 */
export class ScriptedModel implements Model {
  private calls = 0;

  /** `thinkMs`: how long each answer takes to start, so the card shows the model thinking (ms). */
  constructor(private readonly thinkMs = 800) {}

  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    throw new Error('the example streams');
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const first = this.calls++ === 0;
    const usage = { requests: 1, inputTokens: 700, outputTokens: 25, totalTokens: 725 };
    yield { type: 'response_started' };
    await new Promise((r) => setTimeout(r, this.thinkMs));
    if (first) {
      const output = [{ type: 'function_call' as const, id: 'fc_1', callId: LOOKUP_CALL_ID, name: 'lookup_order', arguments: '{"orderId":"A17"}', status: 'completed' as const }];
      yield { type: 'response_done', response: { id: 'resp_1', usage, output } };
      return;
    }
    const text = answerFor(lookupResult(request.input));
    for (const word of text.split(/(?<= )/)) yield { type: 'output_text_delta', delta: word };
    const output = [{ type: 'message' as const, id: 'msg_2', role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text }] }];
    yield { type: 'response_done', response: { id: 'resp_2', usage, output } };
  }
}

/** The call id of the model's `lookup_order` call. */
const LOOKUP_CALL_ID = 'call_1';

/**
 * What the SDK answers a call whose approval was rejected, in place of the tool's result (its
 * default rejection message, `Tool execution was not approved.`).
 */
const REJECTED = /not approved/i;

/** The text the run gave back for the lookup call: the tool's result, the SDK's rejection, or undefined (no answer yet). */
function lookupResult(input: string | AgentInputItem[]): string | undefined {
  if (typeof input === 'string') return undefined;
  const item = input.find((entry) => entry.type === 'function_call_result' && entry.callId === LOOKUP_CALL_ID);
  if (item?.type !== 'function_call_result') return undefined;
  const output: unknown = item.output;
  if (typeof output === 'string') return output;
  const parts = Array.isArray(output) ? output : [output];
  return parts.map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '')).join('');
}

/** The model's answer after the lookup: the result when the tool ran, else that it did not run. */
function answerFor(result: string | undefined): string {
  if (result === undefined || REJECTED.test(result)) {
    return 'I could not look up order A17: the lookup was not approved, so it did not run. Approve it and ask again to get the delivery status.';
  }
  return `The lookup says: ${result}.`;
}
