import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookCard } from './webhook-channel.js';

/** A stand-in for the receiving end: stores cards, answers `POST /cards` and `PUT /cards/:id`. */
export interface WebhookServer {
  readonly url: string;
  /** Every card by id, with all accepted versions. */
  readonly cards: Map<string, WebhookCard[]>;
  /** Status to answer the next requests with (tests use it to script failures). */
  readonly failures: number[];
  close(): Promise<void>;
}

export async function startWebhookServer(): Promise<WebhookServer> {
  const cards = new Map<string, WebhookCard[]>();
  const failures: number[] = [];
  const byKey = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const failure = failures.shift();
      if (failure) return void res.writeHead(failure, { 'retry-after': '1' }).end();
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const id = req.method === 'POST' ? (byKey.get(url.searchParams.get('key') ?? '') ?? `card-${cards.size + 1}`) : url.pathname.split('/').pop()!;
      if (req.method === 'POST') byKey.set(url.searchParams.get('key') ?? id, id);
      if (req.method === 'PUT' && !cards.has(id)) return void res.writeHead(404).end();
      cards.set(id, [...(cards.get(id) ?? []), JSON.parse(body) as WebhookCard]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cards`,
    cards,
    failures,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
