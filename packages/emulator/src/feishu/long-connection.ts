import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs/light.js';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { randomHex } from '../common/ids.js';
import type { FeishuApp } from './tokens.js';

/**
 * The frame of Feishu's long connection (package `pbbp2`, as `@larksuiteoapi/node-sdk` generates it
 * from its `.proto`): `method` 0 = control (ping / pong), 1 = data (events and callbacks, and the
 * client's answers to them); headers carry `type`, `message_id`, `sum`, `seq`, `trace_id`.
 */
const PBBP2 = protobuf.Root.fromJSON({
  nested: {
    pbbp2: {
      nested: {
        Header: { fields: { key: { id: 1, type: 'string', rule: 'required' }, value: { id: 2, type: 'string', rule: 'required' } } },
        Frame: {
          fields: {
            SeqID: { id: 1, type: 'uint64', rule: 'required' },
            LogID: { id: 2, type: 'uint64', rule: 'required' },
            service: { id: 3, type: 'int32', rule: 'required' },
            method: { id: 4, type: 'int32', rule: 'required' },
            headers: { id: 5, type: 'Header', rule: 'repeated' },
            payloadEncoding: { id: 6, type: 'string' },
            payloadType: { id: 7, type: 'string' },
            payload: { id: 8, type: 'bytes' },
            LogIDNew: { id: 9, type: 'string' },
          },
        },
      },
    },
  },
}).lookupType('pbbp2.Frame');

const FRAME_CONTROL = 0;
const FRAME_DATA = 1;

/** One frame, decoded. */
interface Frame {
  readonly method: number;
  readonly service: number;
  readonly headers: ReadonlyArray<{ readonly key: string; readonly value: string }>;
  readonly payload?: Uint8Array;
}

/**
 * What the connection endpoint hands out besides the URL (`ClientConfig`, seconds), and the pong
 * repeats: ping every `PingInterval` s, reconnect `ReconnectCount` times (-1: forever) every
 * `ReconnectInterval` s plus up to `ReconnectNonce` s of jitter.
 */
const DEFAULT_CLIENT_CONFIG = { PingInterval: 120, ReconnectCount: -1, ReconnectInterval: 120, ReconnectNonce: 30 } as const;

/** The client config in seconds (see {@link DEFAULT_CLIENT_CONFIG}) and the connection limit. */
export interface LongConnectionSettings {
  readonly pingIntervalSeconds?: number;
  readonly reconnectIntervalSeconds?: number;
  readonly reconnectJitterSeconds?: number;
  /** Connections one app may hold (default 50, as documented); more are refused. */
  readonly maxConnections?: number;
}

/** Default connections per app: "每个应用最多建立 50 个连接" (see {@link FeishuLongConnectionHub}). */
const MAX_CONNECTIONS_PER_APP = 50;

/** Code of a connection request over the limit (the SDK's `ErrorCode.exceed_conn_limit`). */
export const LONG_CONNECTION_LIMIT_EXCEEDED = 1000040350;

/** Code the emulator answers a connection request with unknown credentials (the SDK's `ErrorCode.auth_failed`). */
export const LONG_CONNECTION_AUTH_FAILED = 514;

/** The client's answer to a pushed callback: its `code` (200, or 500 when its handler threw) and the handler's result. */
export interface LongConnectionAck {
  readonly code: number;
  readonly response?: Record<string, unknown>;
}

interface Connection {
  readonly appId: string;
  readonly service: number;
  readonly socket: WebSocket;
}

const header = (frame: Frame, key: string) => frame.headers.find((h) => h.key === key)?.value;

/**
 * Feishu's long connection as the official Node SDK's `WSClient` speaks it:
 * `POST /callback/ws/endpoint` (`{ AppID, AppSecret }`) answers `{ code: 0, data: { URL,
 * ClientConfig } }`; the client opens a WebSocket at `URL`; frames are protobuf `pbbp2.Frame`.
 * The client pings (control frame, `type: ping`) and the server pongs with the client config; the
 * server pushes events and callbacks as data frames (`type: event`, one fragment: `sum` 1, `seq` 0)
 * and the client answers each with the same frame carrying `{ code, data: base64(JSON) }` (the
 * SDK's `ws-client`). Feishu re-pushes a message not answered within 3 s; one app may hold up to 50
 * connections and each message goes to one of them ("使用长连接接收事件",
 * https://open.feishu.cn/document/ukTMukTMukTM/uYDNxYjL2QTM24iN0EjN/event-subscription-configure-/request-url-configuration-case).
 * The WebSocket server listens on its own loopback port, started on the first connection request.
 */
export class FeishuLongConnectionHub {
  private server: WebSocketServer | undefined;
  private starting: Promise<string> | undefined;
  private readonly tickets = new Map<string, string>();
  private readonly connections = new Set<Connection>();
  private readonly waiting = new Map<string, (ack: LongConnectionAck) => void>();

  private readonly clientConfig: Record<string, number>;
  private readonly maxConnections: number;

  constructor(
    private readonly apps: readonly FeishuApp[],
    private readonly host: string,
    timing: LongConnectionSettings = {},
  ) {
    this.maxConnections = timing.maxConnections ?? MAX_CONNECTIONS_PER_APP;
    this.clientConfig = {
      ...DEFAULT_CLIENT_CONFIG,
      ...(timing.pingIntervalSeconds !== undefined ? { PingInterval: timing.pingIntervalSeconds } : {}),
      ...(timing.reconnectIntervalSeconds !== undefined ? { ReconnectInterval: timing.reconnectIntervalSeconds } : {}),
      ...(timing.reconnectJitterSeconds !== undefined ? { ReconnectNonce: timing.reconnectJitterSeconds } : {}),
    };
  }

  /** The answer to `POST /callback/ws/endpoint`. */
  async endpoint(body: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    const app = this.apps.find((a) => a.appId === body?.AppID && a.appSecret === body?.AppSecret);
    if (!app) return { code: LONG_CONNECTION_AUTH_FAILED, msg: '(emulator) app id or secret is wrong', data: {} };
    const held = [...this.connections].filter((c) => c.appId === app.appId).length + [...this.tickets.values()].filter((id) => id === app.appId).length;
    if (held >= this.maxConnections) return { code: LONG_CONNECTION_LIMIT_EXCEEDED, msg: `(emulator) the app holds ${held} connections, the limit is ${this.maxConnections}`, data: {} };
    const ticket = randomUUID();
    this.tickets.set(ticket, app.appId);
    // device_id and service_id after another parameter: the SDK reads them with qs.parse(URL).
    const url = `${await this.url()}?fpid=1&device_id=${randomHex(8)}&service_id=1&ticket=${ticket}`;
    return { code: 0, msg: 'ok', data: { URL: url, ClientConfig: this.clientConfig } };
  }

  /** True when a client of app `appId` is connected. */
  connected(appId: string): boolean {
    return [...this.connections].some((c) => c.appId === appId);
  }

  /**
   * Pushes a callback body (the `card.action.trigger` schema 2.0 JSON) to a connected client of
   * `appId` and waits for its answer.
   * @returns the answer; `'not-connected'` when no client of the app is connected; `'timeout'` when
   * none came within `timeoutMs`, or when `loseAnswer` (the answer is dropped as a network fault would).
   * With `random` (cluster mode) the push goes to a connection of the app picked at random, else to the first.
   */
  push(appId: string, body: Record<string, unknown>, timeoutMs: number, loseAnswer = false, random = false): Promise<LongConnectionAck | 'timeout' | 'not-connected'> {
    const candidates = [...this.connections].filter((c) => c.appId === appId);
    const connection = candidates[random ? Math.floor(Math.random() * candidates.length) : 0];
    if (!connection) return Promise.resolve('not-connected');
    const messageId = randomHex(16);
    const frame = {
      SeqID: 0,
      LogID: 0,
      service: connection.service,
      method: FRAME_DATA,
      headers: [
        { key: 'type', value: 'event' },
        { key: 'message_id', value: messageId },
        { key: 'sum', value: '1' },
        { key: 'seq', value: '0' },
        { key: 'trace_id', value: randomHex(16) },
      ],
      payload: Buffer.from(JSON.stringify(body), 'utf8'),
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(messageId);
        resolve('timeout');
      }, timeoutMs);
      this.waiting.set(messageId, (ack) => {
        if (loseAnswer) return;
        clearTimeout(timer);
        this.waiting.delete(messageId);
        resolve(ack);
      });
      connection.socket.send(PBBP2.encode(PBBP2.fromObject(frame)).finish());
    });
  }

  /** Drops every connection (the SDK reconnects on its own, through the endpoint again). */
  disconnectAll(): void {
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.starting = undefined;
    this.disconnectAll();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private url(): Promise<string> {
    this.starting ??= new Promise((resolve, reject) => {
      const server = new WebSocketServer({ host: this.host, port: 0 });
      this.server = server;
      server.once('error', reject);
      server.once('listening', () => {
        const { port } = server.address() as AddressInfo;
        resolve(`ws://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}/ws/v2`);
      });
      server.on('connection', (socket, request) => {
        const query = new URL(request.url ?? '/', 'ws://emulator').searchParams;
        const appId = this.tickets.get(query.get('ticket') ?? '');
        if (!appId) return socket.close(4001, 'unknown ticket');
        this.tickets.delete(query.get('ticket') ?? '');
        const connection: Connection = { appId, service: Number(query.get('service_id') ?? 1), socket };
        this.connections.add(connection);
        socket.on('close', () => this.connections.delete(connection));
        socket.on('message', (raw) => this.receive(connection, raw));
      });
    });
    return this.starting;
  }

  private receive(connection: Connection, raw: RawData): void {
    let frame: Frame;
    try {
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
      frame = PBBP2.toObject(PBBP2.decode(bytes), { longs: Number, defaults: true }) as unknown as Frame;
    } catch {
      return;
    }
    if (frame.method === FRAME_CONTROL && header(frame, 'type') === 'ping') {
      const pong = { SeqID: 0, LogID: 0, service: connection.service, method: FRAME_CONTROL, headers: [{ key: 'type', value: 'pong' }], payload: Buffer.from(JSON.stringify(this.clientConfig)) };
      connection.socket.send(PBBP2.encode(PBBP2.fromObject(pong)).finish());
      return;
    }
    const messageId = header(frame, 'message_id');
    const resolve = frame.method === FRAME_DATA && messageId ? this.waiting.get(messageId) : undefined;
    if (!resolve) return;
    let ack: LongConnectionAck;
    try {
      const answer = JSON.parse(Buffer.from(frame.payload ?? []).toString('utf8')) as { code?: number; data?: string };
      const response = answer.data ? (JSON.parse(Buffer.from(answer.data, 'base64').toString('utf8')) as Record<string, unknown>) : undefined;
      ack = { code: typeof answer.code === 'number' ? answer.code : 0, response };
    } catch {
      ack = { code: 500 };
    }
    resolve(ack);
  }
}
