import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { listen, type RunningServer } from '@progresscard/emulator';
import type { PanelSnapshot, PreviewSource } from './model.js';

/**
 * The live preview web server: one page (plain HTML/CSS/JS from `packages/cli/static/`), a JSON
 * state endpoint and a server-sent-events stream that pushes the whole state whenever an emulator
 * changes (at most every {@link MIN_PUSH_INTERVAL_MS}), plus a slow poll that catches rejected calls,
 * which change no card and so raise no change event.
 */

/** What the page's top bar shows about the replay. */
export interface RunInfo {
  readonly title: string;
  readonly trace?: string;
  readonly format?: string;
  readonly speed?: number;
  readonly tickMs?: number;
  readonly eventsTotal?: number;
  readonly eventsDone?: number;
  /** `replaying`, `done`, `failed`, `emulator` (standalone emulators, no replay). */
  readonly phase: string;
}

/** The whole state the page renders. */
export interface PreviewState {
  readonly run: RunInfo;
  readonly panels: readonly PanelSnapshot[];
}

/** Options of {@link startPreviewServer}. */
export interface PreviewServerOptions {
  readonly sources: readonly PreviewSource[];
  /** Current run info (called on every push). */
  readonly runInfo: () => RunInfo;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Port to try first (0 = any free port). */
  readonly port?: number;
  /** When the port is taken, fall back to a free port instead of failing (default true). */
  readonly fallback?: boolean;
  /**
   * Host names the page may be opened under besides `127.0.0.1`, `localhost`, `[::1]` and `host`;
   * a request naming another host, or sent from another site (`Origin`), gets 403 (DNS rebinding).
   */
  readonly allowedHosts?: readonly string[];
}

/** A running preview server. */
export interface PreviewServer {
  /** E.g. `http://127.0.0.1:4870/`. */
  readonly url: string;
  readonly port: number;
  /** Pushes the current state to every open page now (e.g. after the run info changed). */
  notify(): void;
  close(): Promise<void>;
}

/** Friendly default port of the preview page; a free one is used when it is taken. */
export const DEFAULT_PREVIEW_PORT = 4870;
/** Minimum time between two pushes to the page. */
const MIN_PUSH_INTERVAL_MS = 100;
const POLL_MS = 500;

const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/style.css': 'style.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

// `static/` sits next to `src/` and `dist/`, so the same relative URL works from both.
const STATIC_DIR = new URL('../../static/', import.meta.url);

/** Builds the page's state now. */
function previewState(sources: readonly PreviewSource[], runInfo: () => RunInfo): PreviewState {
  return { run: runInfo(), panels: sources.map((s) => s.snapshot()) };
}

/** The Hono app of the preview page (exported for tests that mount it without a server). */
function previewApp(sources: readonly PreviewSource[], runInfo: () => RunInfo, hub: PushHub): Hono {
  const app = new Hono();
  for (const [route, file] of Object.entries(STATIC_FILES)) {
    app.get(route, async (c) => {
      const body = await readFile(new URL(file, STATIC_DIR), 'utf8');
      return c.body(body, 200, { 'content-type': CONTENT_TYPES[file.split('.').pop()!]!, 'cache-control': 'no-store' });
    });
  }
  app.get('/api/state', (c) => c.json(previewState(sources, runInfo)));
  // A person clicks a card button on the page: the emulator delivers the platform's callback.
  app.post('/api/click', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const source = sources.find((s) => s.id === body.panel);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    if (!source?.click) return c.json({ ok: false, message: `panel ${JSON.stringify(body.panel)} has no clickable cards` }, 400);
    if (!text(body.card) || !text(body.button)) return c.json({ ok: false, message: 'card and button are required' }, 400);
    const result = await source.click({ cardId: text(body.card), button: text(body.button), user: text(body.user) || 'ou_preview_user', input: typeof body.input === 'string' ? body.input : undefined });
    hub.poke();
    return c.json(result);
  });
  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      let last = '';
      const send = async () => {
        const data = JSON.stringify(previewState(sources, runInfo));
        if (data === last) return;
        last = data;
        await stream.writeSSE({ event: 'state', data });
      };
      await send();
      await new Promise<void>((resolve) => {
        const unsubscribe = hub.add(() => void send().catch(() => undefined));
        stream.onAbort(() => {
          unsubscribe();
          resolve();
        });
      });
    }),
  );
  return app;
}

/** Fans "something changed" out to every open page, throttled. */
class PushHub {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private lastPush = 0;

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Schedules a push (coalesced; at most one per {@link MIN_PUSH_INTERVAL_MS}). */
  poke(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastPush + MIN_PUSH_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastPush = Date.now();
      for (const listener of [...this.listeners]) listener();
    }, wait);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }
}

async function listenWithFallback(app: Hono, host: string, port: number, fallback: boolean, allowedHosts: readonly string[] | undefined): Promise<RunningServer> {
  try {
    return await listen(app, { host, port, allowedHosts });
  } catch (error) {
    if (!fallback || port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return listen(app, { host, port: 0, allowedHosts });
  }
}

/**
 * Starts the preview server on loopback. Only requests that name it (`Host`) and come from its own
 * page or no page (`Origin`) are answered; others get 403, so a DNS-rebinding page cannot read
 * `/api/state` or click cards.
 * @throws the listen error when the port is taken and `fallback` is false.
 */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const hub = new PushHub();
  const app = previewApp(options.sources, options.runInfo, hub);
  const server = await listenWithFallback(app, options.host ?? '127.0.0.1', options.port ?? DEFAULT_PREVIEW_PORT, options.fallback ?? true, options.allowedHosts);
  const unsubscribes = options.sources.map((s) => s.subscribe(() => hub.poke()));
  const poll = setInterval(() => hub.poke(), POLL_MS);
  poll.unref();
  return {
    url: `${server.baseUrl}/`,
    port: server.port,
    notify: () => hub.poke(),
    async close() {
      clearInterval(poll);
      for (const unsubscribe of unsubscribes) unsubscribe();
      hub.dispose();
      await server.close();
    },
  };
}
