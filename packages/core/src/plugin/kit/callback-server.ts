/**
 * The HTTP server a plugin's card callbacks arrive on: listening, the URL to register, closing, the
 * 404 for other methods and paths and the 500 for a request whose handling failed. What a request
 * means (signature, parsing, the answer) stays with the plugin's handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Largest callback body {@link readCallbackBody} reads by default, in bytes. */
export const MAX_CALLBACK_BODY_BYTES = 1_000_000;

/** Handles one `POST` to the callback path; a rejection is answered 500 (see {@link CallbackServerOptions.answer}). */
export type CallbackRequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Options of {@link CallbackServer}. */
export interface CallbackServerOptions {
  /** Host to listen on; an IPv6 address (with `:`) is shown in brackets in {@link CallbackServer.url}. */
  readonly host: string;
  /** Port to listen on; 0: any free port (see {@link CallbackServer.url}). */
  readonly port: number;
  /** The callback path (e.g. `/feishu/card-callback`); only `POST` to it reaches the handler, the query is ignored. */
  readonly path: string;
  /**
   * Writes the server's own answers in the platform's shape: 404 `not found` (another method or
   * path) and 500 `internal error` (the handler rejected; the response may already be sent).
   */
  readonly answer: (response: ServerResponse, status: 404 | 500, message: string) => void;
}

/**
 * One callback HTTP server: {@link CallbackServer.listen} starts it (a second call while listening
 * is a no-op), {@link CallbackServer.close} stops it and drops open connections. A failing request
 * is answered 500 and never takes the process or other requests down.
 */
export class CallbackServer {
  private server: Server | undefined;
  private listening: Promise<string> | undefined;
  private address: string | undefined;

  constructor(private readonly options: CallbackServerOptions) {}

  /** True from {@link CallbackServer.listen} until {@link CallbackServer.close} (or a failed listen). */
  get started(): boolean {
    return this.server !== undefined;
  }

  /** The callback URL once listening, e.g. `http://127.0.0.1:41234/feishu/card-callback` or `http://[::1]:41234/…`. */
  get url(): string | undefined {
    return this.address;
  }

  /**
   * Listens on the options' host and port and sends each `POST` to the path to `handler`.
   * @returns the callback URL (as {@link CallbackServer.url}).
   * @throws the listen error (e.g. `EADDRINUSE`); the server is then closed and `listen` may be called again.
   */
  listen(handler: CallbackRequestHandler): Promise<string> {
    if (this.listening) return this.listening;
    const { host, port, path, answer } = this.options;
    const server = createServer((request, response) => {
      if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== path) return answer(response, 404, 'not found');
      handler(request, response).catch(() => answer(response, 500, 'internal error'));
    });
    this.server = server;
    this.listening = new Promise<string>((resolve, reject) => {
      server.once('error', (error) => {
        if (this.server === server) {
          this.server = undefined;
          this.listening = undefined;
        }
        reject(error);
      });
      server.listen(port, host, () => {
        server.removeAllListeners('error');
        const actual = (server.address() as AddressInfo).port;
        this.address = `http://${host.includes(':') ? `[${host}]` : host}:${actual}${path}`;
        resolve(this.address);
      });
    });
    return this.listening;
  }

  /** Stops listening and closes open connections; resolves once closed (at once when not listening). Never rejects. */
  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.listening = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/**
 * The request body as UTF-8 text, or undefined when it is larger than `maxBytes` (the rest is read
 * and dropped, so the answer can still be sent).
 * @param maxBytes largest body taken, in bytes (default {@link MAX_CALLBACK_BODY_BYTES}).
 * @throws (rejects with) the request's stream error.
 */
export function readCallbackBody(request: IncomingMessage, maxBytes: number = MAX_CALLBACK_BODY_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The first value of a request header (`name` in lower case), or undefined when absent. */
export function callbackHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
