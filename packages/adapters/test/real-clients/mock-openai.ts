import type { ServerResponse } from 'node:http';
import { pieces, serveJson, type MockModelServer, type ModelTurn } from './mock-anthropic.js';

const INPUT_TOKENS = 1500;
const OUTPUT_TOKENS = 42;

function sse(res: ServerResponse, data: Record<string, unknown>): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The OpenAI Responses API as Codex and the OpenAI Agents SDK use it (`POST /v1/responses` with
 * `stream: true`; events of https://platform.openai.com/docs/api-reference/responses-streaming:
 * response.created, response.output_item.added / .done, response.output_text.delta,
 * response.completed with usage; `response.failed` for a failure mid-stream). Every request plays
 * the next of `turns`: a function call (`tool`, arguments `input` as JSON), a streamed answer, a
 * 5xx, or a stream that hangs after `response.created`.
 */
export function mockOpenAIResponses(turns: readonly ModelTurn[], isMainLoop: (body: Record<string, any>) => boolean = () => true): Promise<MockModelServer> {
  let next = 0;
  let ids = 0;
  return serveJson(({ method, path, body }, res) => {
    // Codex tries a WebSocket first (a GET upgrade): refused, it falls back to HTTPS streaming.
    if (method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    const turn: ModelTurn = isMainLoop(body) ? (turns[next++] ?? { text: 'Done.' }) : { text: 'ok' };
    if ('status' in turn) {
      res.writeHead(turn.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: turn.message, type: 'server_error' } }));
      return;
    }
    const id = `resp_mock_${++ids}`;
    const model = String(body.model ?? 'mock-model');
    const response = (status: string, output: unknown[] = [], extra: Record<string, unknown> = {}) => ({ id, object: 'response', created_at: 1764547200, status, model, output, ...extra });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let seq = 0;
    sse(res, { type: 'response.created', sequence_number: seq++, response: response('in_progress') });
    if ('hang' in turn) return;
    let item: Record<string, unknown>;
    if ('tool' in turn) {
      item = { type: 'function_call', id: `fc_${ids}`, call_id: `call_mock_${ids}`, name: turn.tool, arguments: JSON.stringify(turn.input), status: 'completed' };
      sse(res, { type: 'response.output_item.added', sequence_number: seq++, output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
      sse(res, { type: 'response.function_call_arguments.delta', sequence_number: seq++, output_index: 0, item_id: item.id, delta: item.arguments });
      sse(res, { type: 'response.function_call_arguments.done', sequence_number: seq++, output_index: 0, item_id: item.id, arguments: item.arguments });
    } else {
      const text = turn.errorAfter === undefined ? turn.text : turn.text.slice(0, turn.errorAfter);
      item = { type: 'message', id: `msg_${ids}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
      sse(res, { type: 'response.output_item.added', sequence_number: seq++, output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
      sse(res, { type: 'response.content_part.added', sequence_number: seq++, output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const piece of pieces(text)) sse(res, { type: 'response.output_text.delta', sequence_number: seq++, output_index: 0, item_id: item.id, content_index: 0, delta: piece });
      if (turn.errorAfter !== undefined) {
        sse(res, { type: 'response.failed', sequence_number: seq++, response: response('failed', [], { error: { code: 'server_error', message: 'The model is overloaded. Please try again later.' } }) });
        res.end();
        return;
      }
      sse(res, { type: 'response.output_text.done', sequence_number: seq++, output_index: 0, item_id: item.id, content_index: 0, text });
    }
    sse(res, { type: 'response.output_item.done', sequence_number: seq++, output_index: 0, item });
    sse(res, {
      type: 'response.completed',
      sequence_number: seq++,
      response: response('completed', [item], { usage: { input_tokens: INPUT_TOKENS, input_tokens_details: { cached_tokens: 0 }, output_tokens: OUTPUT_TOKENS, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: INPUT_TOKENS + OUTPUT_TOKENS } }),
    });
    res.end();
  });
}
