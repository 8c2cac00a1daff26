import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { listen } from '../src/index.js';

describe('listen', () => {
  it('serves an app on 127.0.0.1 with a free port and closes', async () => {
    const app = new Hono().get('/ping', (c) => c.json({ ok: true }));
    const server = await listen(app);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.baseUrl}/ping`);
    expect(await res.json()).toEqual({ ok: true });
    await server.close();
    await expect(fetch(`${server.baseUrl}/ping`)).rejects.toThrow();
  });
});
