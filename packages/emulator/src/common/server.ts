import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** Where to listen. Defaults: host `127.0.0.1`, port `0` (a free port chosen by the OS). */
export interface ListenOptions {
  readonly host?: string;
  readonly port?: number;
}

/** A running HTTP server. */
export interface RunningServer {
  /** E.g. `http://127.0.0.1:43121`, no trailing slash (the Feishu SDK appends `/open-apis/...`). */
  readonly baseUrl: string;
  readonly port: number;
  /** Stops accepting connections, drops keep-alive ones, resolves when the server is closed. */
  close(): Promise<void>;
}

/** Anything with a WHATWG `fetch` handler, e.g. a Hono app. */
export interface FetchHandler {
  fetch(request: Request, ...rest: unknown[]): Response | Promise<Response>;
}

/**
 * Serves `app` over real HTTP on loopback.
 * @throws the listen error (e.g. `EADDRINUSE`) when the port is taken.
 */
export function listen(app: FetchHandler, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        baseUrl: `http://${shownHost}:${address.port}`,
        port: address.port,
        close: () =>
          (closing ??= new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          })),
      });
    });
  });
}
