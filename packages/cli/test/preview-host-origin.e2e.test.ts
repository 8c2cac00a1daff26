/**
 * DNS rebinding against the live preview: a page on evil.example whose name the attacker re-points
 * at 127.0.0.1 must not read `/api/state` (every card's content), follow `/api/events` or click
 * card buttons through `/api/click`. Real loopback HTTP with forged `Host` and `Origin` headers.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewServer, type PreviewServer } from '../src/index.js';

/** One HTTP request to 127.0.0.1:`port`, headers sent as given (Host included); the body is read until `maxBytes`. */
function call(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // The event stream never ends: its first event is enough.
        if (path === '/api/events') req.destroy();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(body);
  });
}

describe('preview server and DNS rebinding', () => {
  let preview: PreviewServer;
  let clicks = 0;
  beforeAll(async () => {
    const source = {
      id: 'feishu',
      snapshot: () => ({ id: 'feishu', title: 'Feishu', cards: [{ text: 'TOP-SECRET-CARD' }] }) as never,
      subscribe: () => () => undefined,
      click: async () => {
        clicks += 1;
        return { ok: true } as never;
      },
    };
    preview = await startPreviewServer({ sources: [source as never], runInfo: () => ({ title: 'rebinding', phase: 'replaying' }), port: 0 });
  });
  afterAll(() => preview.close());

  it('a request naming another host gets 403 on every route, and no state', async () => {
    const port = preview.port;
    for (const path of ['/', '/app.js', '/api/state', '/api/events']) {
      const answer = await call(port, path, { host: `evil.example:${port}` });
      expect(answer.status, path).toBe(403);
      expect(answer.body).not.toContain('TOP-SECRET-CARD');
    }
  });

  it('a request from another site (Origin) gets 403, also for a click', async () => {
    const port = preview.port;
    const state = await call(port, '/api/state', { host: `127.0.0.1:${port}`, origin: `http://evil.example:${port}` });
    expect(state.status).toBe(403);
    const click = await call(port, '/api/click', { host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'content-type': 'application/json' }, 'POST', JSON.stringify({ panel: 'feishu', card: 'c', button: 'b' }));
    expect(click.status).toBe(403);
    expect(clicks).toBe(0);
  });

  it('the page itself (127.0.0.1, localhost, [::1] with the port) reads the state and clicks', async () => {
    const port = preview.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const state = await call(port, '/api/state', { host });
      expect(state.status, host).toBe(200);
      expect(state.body).toContain('TOP-SECRET-CARD');
    }
    const click = await call(port, '/api/click', { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/json' }, 'POST', JSON.stringify({ panel: 'feishu', card: 'c', button: 'b' }));
    expect(click.status).toBe(200);
    expect(clicks).toBe(1);
  });
});
