import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DingTalkAppCredentials } from './tokens.js';
import type { IncomingMessage } from 'node:http';
import { allowedHostNames, foreignRequestReason } from '../common/local-origin.js';

/** Stream-mode topic of card callbacks (dingtalk-stream `TOPIC_CARD`). */
export const CARD_CALLBACK_TOPIC = '/v1.0/card/instances/callback';

/** One subscription a Stream-mode client asks for (`{ type: 'CALLBACK', topic }`). */
interface Subscription {
  readonly type: string;
  readonly topic: string;
}

interface Connection {
  readonly appKey: string;
  readonly subscriptions: readonly Subscription[];
  readonly socket: WebSocket;
}

/** An answer a client sent for a pushed frame: the parsed `data`. */
type Ack = Record<string, unknown> | undefined;

/**
 * DingTalk's Stream mode, as the official `dingtalk-stream` SDK speaks it: `POST
 * /v1.0/gateway/connections/open` (clientId, clientSecret, subscriptions) answers an `endpoint`
 * and a `ticket`; the client opens a WebSocket at `endpoint?ticket=…`; the server pushes JSON
 * frames `{ specVersion, type: 'CALLBACK', headers: { topic, messageId, … }, data }` and the client
 * answers `{ code: 200, headers: { messageId }, message: 'OK', data }`
 * (https://open.dingtalk.com/document/development/introduction-to-stream-mode). The WebSocket
 * server listens on its own loopback port, started on the first connection request.
 */
export class DingTalkStreamHub {
  private server: WebSocketServer | undefined;
  private starting: Promise<string> | undefined;
  private readonly tickets = new Map<string, { appKey: string; subscriptions: readonly Subscription[] }>();
  private readonly connections = new Set<Connection>();
  private readonly waiting = new Map<string, (ack: Ack) => void>();

  constructor(
    private readonly apps: readonly DingTalkAppCredentials[],
    private readonly host: string,
    /** Host names accepted besides loopback and `host` (see `ListenOptions.allowedHosts`). */
    private readonly allowedHosts: readonly string[] = [],
  ) {}

  /** Answers a connection request, or undefined when the client id / secret pair is unknown. */
  async open(body: Record<string, unknown>): Promise<{ endpoint: string; ticket: string } | undefined> {
    const app = this.apps.find((a) => a.appKey === body.clientId && a.appSecret === body.clientSecret);
    if (!app) return undefined;
    const subscriptions = Array.isArray(body.subscriptions) ? (body.subscriptions as Subscription[]) : [];
    const ticket = randomUUID();
    this.tickets.set(ticket, { appKey: app.appKey, subscriptions });
    return { endpoint: await this.endpoint(), ticket };
  }

  /** True when a connected client of some app subscribed to `topic`. */
  subscribed(topic: string): boolean {
    return [...this.connections].some((c) => c.subscriptions.some((s) => s.type === 'CALLBACK' && s.topic === topic));
  }

  /**
   * Pushes a callback frame to a client subscribed to `topic` and waits for its answer.
   * @returns the answer's parsed `data`; `undefined` when no client is subscribed; `'timeout'` when
   * none came within `timeoutMs`.
   */
  async push(topic: string, messageId: string, data: unknown, timeoutMs: number): Promise<Ack | 'timeout' | 'not-subscribed'> {
    const connection = [...this.connections].find((c) => c.subscriptions.some((s) => s.type === 'CALLBACK' && s.topic === topic));
    if (!connection) return 'not-subscribed';
    const frame = {
      specVersion: '1.0',
      type: 'CALLBACK',
      headers: { appId: connection.appKey, connectionId: 'emulator', contentType: 'application/json', messageId, time: String(Date.now()), topic },
      data: JSON.stringify(data),
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(messageId);
        resolve('timeout');
      }, timeoutMs);
      this.waiting.set(messageId, (ack) => {
        clearTimeout(timer);
        this.waiting.delete(messageId);
        resolve(ack);
      });
      connection.socket.send(JSON.stringify(frame));
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.starting = undefined;
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private endpoint(): Promise<string> {
    this.starting ??= new Promise((resolve, reject) => {
      let port = 0;
      const hosts = allowedHostNames(this.host, this.allowedHosts);
      // Like the HTTP routes: a socket opened by a page of another site (DNS rebinding) is refused.
      const verifyClient = ({ req }: { req: IncomingMessage }) => {
        const headers = new Headers();
        for (const name of ['host', 'origin']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers.set(name, value);
        }
        return foreignRequestReason(headers, hosts, port) === undefined;
      };
      const server = new WebSocketServer({ host: this.host, port: 0, verifyClient });
      this.server = server;
      server.once('error', reject);
      server.once('listening', () => {
        ({ port } = server.address() as AddressInfo);
        resolve(`ws://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}/connect`);
      });
      server.on('connection', (socket, request) => {
        const ticket = new URL(request.url ?? '/', 'ws://emulator').searchParams.get('ticket') ?? '';
        const granted = this.tickets.get(ticket);
        if (!granted) return socket.close(4001, 'unknown ticket');
        this.tickets.delete(ticket);
        const connection: Connection = { ...granted, socket };
        this.connections.add(connection);
        socket.on('close', () => this.connections.delete(connection));
        socket.on('message', (raw) => this.answer(String(raw)));
      });
    });
    return this.starting;
  }

  private answer(raw: string): void {
    let frame: { headers?: { messageId?: string }; data?: unknown };
    try {
      frame = JSON.parse(raw) as typeof frame;
    } catch {
      return;
    }
    const resolve = frame.headers?.messageId ? this.waiting.get(frame.headers.messageId) : undefined;
    if (!resolve) return;
    let data: Ack;
    try {
      data = typeof frame.data === 'string' ? (JSON.parse(frame.data) as Ack) : (frame.data as Ack);
    } catch {
      data = undefined;
    }
    resolve(data);
  }
}
