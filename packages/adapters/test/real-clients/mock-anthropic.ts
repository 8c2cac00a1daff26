import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One scripted model turn of the main agent loop. `tool`: the model calls that tool with `input`;
 * `text`: the model answers (streamed in small deltas); `errorAfter`: the stream stops after that
 * many characters of `text` with an `error` event (an overloaded model mid-answer); `status`: the
 * request fails with that HTTP status before streaming (a retryable 5xx); `hang`: the stream sends
 * its start and then nothing until the client goes away (for aborts).
 */
export type ModelTurn =
  | { readonly tool: string; readonly input: Record<string, unknown>; readonly thinking?: string }
  | { readonly text: string; readonly errorAfter?: number }
  | { readonly status: number; readonly message: string }
  | { readonly hang: true };

/** A request the mock received (path and parsed body). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, any>;
}

/** A loopback server that speaks as much of a model API as the clients under test use. */
export interface MockModelServer {
  readonly baseUrl: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

const INPUT_TOKENS = 1200;
const OUTPUT_TOKENS = 34;

/** Serves `handler` on 127.0.0.1 (an ephemeral port), collecting the JSON request bodies. */
export async function serveJson(handler: (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void): Promise<MockModelServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        // not JSON: kept empty
      }
      const seen = { method: raw.method ?? 'GET', path: (raw.url ?? '').split('?')[0]!, body };
      requests.push(seen);
      handler(seen, res, raw);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Pieces of `text` of about `size` characters (a streamed answer). */
export function pieces(text: string, size = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The Anthropic Messages API as Claude Code uses it (`POST /v1/messages` with `stream: true`, the
 * event sequence of https://docs.anthropic.com/en/api/messages-streaming: message_start,
 * content_block_start / _delta / _stop, message_delta with `stop_reason` and usage, message_stop;
 * an `error` event for a failure mid-stream). Requests of the main loop (those offering the
 * scripted tools) play `turns` in order; any other request (title generation, quota checks) gets
 * a one-word answer; `count_tokens` is answered too.
 */
export function mockAnthropic(turns: readonly ModelTurn[], isMainLoop: (body: Record<string, any>) => boolean): Promise<MockModelServer> {
  let next = 0;
  let ids = 0;
  return serveJson(({ path, body }, res) => {
    if (path.endsWith('/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: INPUT_TOKENS }));
      return;
    }
    if (!path.endsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
      return;
    }
    const turn: ModelTurn = isMainLoop(body) ? (turns[next++] ?? { text: 'Done.' }) : { text: 'ok' };
    if ('status' in turn) {
      res.writeHead(turn.status, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: turn.message } }));
      return;
    }
    const id = `msg_mock_${++ids}`;
    if (body.stream !== true) {
      // Claude Code falls back to a non-streaming request after a broken stream: a whole message.
      const content = 'tool' in turn ? [{ type: 'tool_use', id: `toolu_mock_${ids}`, name: turn.tool, input: turn.input }] : 'text' in turn ? [{ type: 'text', text: turn.text }] : [];
      const message = { id, type: 'message', role: 'assistant', model: body.model, content, stop_reason: 'tool' in turn ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: INPUT_TOKENS, output_tokens: OUTPUT_TOKENS } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    sse(res, 'message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: INPUT_TOKENS, output_tokens: 1 } },
    });
    if ('hang' in turn) return;
    let index = 0;
    let stop = 'end_turn';
    if ('tool' in turn) {
      if (turn.thinking) {
        sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: turn.thinking } });
        sse(res, 'content_block_stop', { type: 'content_block_stop', index });
        index++;
      }
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_mock_${ids}`, name: turn.tool, input: {} } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) } });
      sse(res, 'content_block_stop', { type: 'content_block_stop', index });
      stop = 'tool_use';
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      const text = turn.errorAfter === undefined ? turn.text : turn.text.slice(0, turn.errorAfter);
      for (const piece of pieces(text)) sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      if (turn.errorAfter !== undefined) {
        sse(res, 'error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
        res.end();
        return;
      }
      sse(res, 'content_block_stop', { type: 'content_block_stop', index });
    }
    sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: OUTPUT_TOKENS } });
    sse(res, 'message_stop', { type: 'message_stop' });
    res.end();
  });
}
