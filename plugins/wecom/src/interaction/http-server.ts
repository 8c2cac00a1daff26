import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readCallbackBody } from '@progresscard/core/plugin';
import type { CallbackAnswer, CallbackQuery, CallbackRequest } from './envelope.js';

/**
 * The HTTP server of the callback URL. WeCom checks the URL with a `GET` (the kit's
 * `CallbackServer` takes only `POST`), so this one serves both on the path and sends them to `handle`.
 */
export class WeComHttpServer {
  private server: Server | undefined;
  private listening: Promise<string> | undefined;
  private address: string | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly path: string,
    private readonly handle: (request: CallbackRequest) => Promise<CallbackAnswer>,
  ) {}

  get url(): string | undefined {
    return this.address;
  }

  listen(): Promise<string> {
    if (this.listening) return this.listening;
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://callback');
      const answer = (status: number, body: string) => response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
      if (url.pathname !== this.path || (request.method !== 'GET' && request.method !== 'POST')) return answer(404, 'not found');
      const query = Object.fromEntries(url.searchParams) as CallbackQuery;
      readCallbackBody(request)
        .then((body) => (body === undefined ? { status: 400, body: 'body too large' } : this.handle({ method: request.method!, query, body })))
        .then(({ status, body }) => answer(status, body))
        .catch(() => answer(500, 'internal error'));
    });
    this.server = server;
    this.listening = new Promise<string>((resolve, reject) => {
      server.once('error', (error) => {
        this.server = undefined;
        this.listening = undefined;
        reject(error);
      });
      server.listen(this.port, this.host, () => {
        const port = (server.address() as AddressInfo).port;
        this.address = `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}${this.path}`;
        resolve(this.address);
      });
    });
    return this.listening;
  }

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
