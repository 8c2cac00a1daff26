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
  readonly answer: (response: ServerResponse, status: 403 | 404 | 500, message: string) => void;
  /**
   * Set on a server that checks no signature: requests a browser could send from another site are
   * answered 403 before the handler (see {@link crossSiteProblem}). Platforms post server to server
   * with JSON, no `Origin`, and the host they were given.
   */
  readonly refuseCrossSite?: CrossSiteGuard;
}

/** What {@link crossSiteProblem} lets through. */
export interface CrossSiteGuard {
  /** The one content type taken (parameters such as `charset` aside), e.g. `application/json`. */
  readonly contentType: string;
  /** Public URL in front of the server (its host is taken as well as the listening one). */
  readonly publicUrl?: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a request looks cross-site, or undefined when it does not: an `Origin` header (browsers send
 * one with every cross-site POST; platforms send none) whose host is not the request's `Host`; a
 * content type other than `guard.contentType` (a page can post `text/plain` or a form without a
 * preflight, never JSON); or, on a server listening on a loopback address, a `Host` that is neither
 * a loopback name with the server's port nor the public URL's host (DNS rebinding).
 */
export function crossSiteProblem(request: IncomingMessage, guard: CrossSiteGuard, listening: { host: string; port: number }): string | undefined {
  const host = (callbackHeader(request, 'host') ?? '').toLowerCase();
  const origin = callbackHeader(request, 'origin');
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      originHost = undefined;
    }
    if (originHost !== host) return `foreign Origin ${JSON.stringify(origin)}`;
  }
  const type = (callbackHeader(request, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== guard.contentType) return `content type ${JSON.stringify(type)} (expected ${guard.contentType})`;
  const publicHost = guard.publicUrl ? new URL(guard.publicUrl).host.toLowerCase() : undefined;
  const bracketed = listening.host.includes(':') ? `[${listening.host}]` : listening.host;
  if (LOOPBACK_NAMES.has(bracketed.toLowerCase())) {
    const hostName = host.replace(/:\d+$/, '');
    const port = /:(\d+)$/.exec(host)?.[1];
    const ownLoopback = LOOPBACK_NAMES.has(hostName) && port === String(listening.port);
    if (!ownLoopback && host !== publicHost) return `Host ${JSON.stringify(host)} is not this server`;
  }
  return undefined;
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
      const guard = this.options.refuseCrossSite;
      const problem = guard && crossSiteProblem(request, guard, { host, port: (server.address() as AddressInfo).port });
      if (problem) {
        request.resume();
        return answer(response, 403, `refused: ${problem}`);
      }
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
