import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { allowedHostNames, foreignRequestReason } from './local-origin.js';

/** Where to listen. Defaults: host `127.0.0.1`, port `0` (a free port chosen by the OS). */
export interface ListenOptions {
  readonly host?: string;
  readonly port?: number;
  /**
   * Host names requests may carry in `Host` and `Origin` besides `127.0.0.1`, `localhost`, `[::1]`
   * and the listen host (e.g. a Docker service name when listening on `0.0.0.0`). Others get 403.
   */
  readonly allowedHosts?: readonly string[];
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
 * Serves `app` over real HTTP on loopback. A request whose `Host` is not this server (one of
 * `127.0.0.1`, `localhost`, `[::1]`, the listen host or `allowedHosts`, with the port), or whose
 * `Origin` is another site, gets 403 without reaching `app`: a page of another site whose name was
 * re-pointed at 127.0.0.1 (DNS rebinding) cannot read or drive it.
 * @throws the listen error (e.g. `EADDRINUSE`) when the port is taken.
 */
export function listen(app: FetchHandler, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const hosts = allowedHostNames(host, options.allowedHosts);
  let boundPort = port;
  const guarded = (request: Request, ...rest: unknown[]) => {
    const refused = foreignRequestReason(request.headers, hosts, boundPort);
    return refused ? new Response(`403 forbidden: ${refused}\n`, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } }) : app.fetch(request, ...rest);
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: guarded, hostname: host, port }) as Server;
    // Node closes a keep-alive connection idle for 5 s by default. On a busy machine a stalled event
    // loop can run that close after a client already wrote its next request on the socket (the client
    // sees ECONNRESET). A minute of idle keeps that race out of test runs; the client's pool (undici
    // follows the server's Keep-Alive hint) closes idle sockets first.
    server.keepAliveTimeout = 60_000;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      boundPort = address.port;
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
