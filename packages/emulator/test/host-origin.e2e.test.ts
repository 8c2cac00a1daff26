/**
 * DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 calls the emulator.
 * Its requests reach the loopback port but name evil.example in `Host` (and its site in `Origin`):
 * they get 403 and never reach the emulator; the SDKs' own requests (no `Origin`) pass.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import WebSocket from 'ws';
import { DEFAULT_DINGTALK_APP, listen, startDingTalkEmulator, startFeishuEmulator, startSlackEmulator } from '../src/index.js';

/** One HTTP request to 127.0.0.1:`port` with the headers given as they are (Host included). */
function call(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a loopback server answers only requests that name it', () => {
  it('listen: foreign Host or Origin → 403 before the app runs; loopback names with the port → the app', async () => {
    let reached = 0;
    const server = await listen(
      new Hono().get('/api/state', (c) => {
        reached += 1;
        return c.json({ secret: 'state' });
      }),
    );
    const port = server.port;
    try {
      for (const headers of [
        { host: `evil.example:${port}` } as Record<string, string>,
        { host: 'evil.example' },
        { host: `127.0.0.1:${port + 1}` },
        { host: '127.0.0.1' },
        { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
        { host: `127.0.0.1:${port}`, origin: `http://evil.example:${port}` },
        { host: `127.0.0.1:${port}`, origin: 'null' },
        { host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` },
        { host: `127.0.0.1.evil.example:${port}` },
      ]) {
        const answer = await call(port, '/api/state', headers);
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.body).not.toContain('state"');
      }
      expect(reached).toBe(0);
      for (const headers of [
        { host: `127.0.0.1:${port}` } as Record<string, string>,
        { host: `localhost:${port}` },
        { host: `LOCALHOST:${port}` },
        { host: `[::1]:${port}` },
        { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      ]) {
        expect((await call(port, '/api/state', headers)).status, JSON.stringify(headers)).toBe(200);
      }
    } finally {
      await server.close();
    }
  });

  it('listen: a host name allowed by its owner (a Docker service name) is answered', async () => {
    const server = await listen(new Hono().get('/', (c) => c.text('ok')), { allowedHosts: ['emulator'] });
    try {
      expect((await call(server.port, '/', { host: `emulator:${server.port}` })).status).toBe(200);
      expect((await call(server.port, '/', { host: `other:${server.port}` })).status).toBe(403);
    } finally {
      await server.close();
    }
  });

  const emulators = {
    feishu: async () => {
      const emulator = await startFeishuEmulator();
      return { port: emulator.port, path: '/open-apis/auth/v3/tenant_access_token/internal', close: () => emulator.close() };
    },
    dingtalk: async () => {
      const emulator = await startDingTalkEmulator();
      return { port: emulator.port, path: '/v1.0/oauth2/accessToken', close: () => emulator.close() };
    },
    slack: async () => {
      const emulator = await startSlackEmulator();
      return { port: emulator.port, path: '/api/auth.test', close: () => emulator.close() };
    },
  };
  for (const [name, start] of Object.entries(emulators)) {
    it(`${name} emulator: a rebinding page gets 403, the emulator's own host is served`, async () => {
      const emulator = await start();
      try {
        expect((await call(emulator.port, emulator.path, { host: `evil.example:${emulator.port}` }, 'POST')).status).toBe(403);
        expect((await call(emulator.port, emulator.path, { host: `127.0.0.1:${emulator.port}`, origin: 'http://evil.example' }, 'POST')).status).toBe(403);
        expect((await call(emulator.port, emulator.path, { host: `127.0.0.1:${emulator.port}` }, 'POST')).status).not.toBe(403);
      } finally {
        await emulator.close();
      }
    });
  }

  it('dingtalk stream: a socket opened from another site is refused, the SDK\'s own connection is accepted', async () => {
    const emulator = await startDingTalkEmulator();
    try {
      const open = async () => {
        const answer = await fetch(`${emulator.baseUrl}/v1.0/gateway/connections/open`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: DEFAULT_DINGTALK_APP.appKey, clientSecret: DEFAULT_DINGTALK_APP.appSecret, subscriptions: [] }),
        });
        return (await answer.json()) as { endpoint: string; ticket: string };
      };
      const connect = (url: string, headers: Record<string, string>) =>
        new Promise<'open' | number>((resolve) => {
          const socket = new WebSocket(url, { headers });
          socket.once('open', () => {
            socket.close();
            resolve('open');
          });
          socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
          socket.once('error', () => resolve(-1));
        });
      const foreign = await open();
      expect(await connect(`${foreign.endpoint}?ticket=${foreign.ticket}`, { origin: 'http://evil.example' })).not.toBe('open');
      const own = await open();
      expect(await connect(`${own.endpoint}?ticket=${own.ticket}`, {})).toBe('open');
    } finally {
      await emulator.close();
    }
  });
});
