import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackServer, callbackHeader, readCallbackBody } from '../../src/plugin/index.js';

function answer(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(message);
}

describe('CallbackServer: the HTTP server card callbacks arrive on', () => {
  const servers: CallbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  function serve(options: { host?: string; path?: string }, handler: Parameters<CallbackServer['listen']>[0]): Promise<string> {
    const server = new CallbackServer({ host: options.host ?? '127.0.0.1', port: 0, path: options.path ?? '/hook', answer });
    servers.push(server);
    return server.listen(handler);
  }

  it('hands a POST to the path (query ignored) to the handler, with its body and headers', async () => {
    const url = await serve({}, async (request, response) => {
      const body = await readCallbackBody(request);
      answer(response, 200, `${callbackHeader(request, 'x-sign')}:${body}`);
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    const response = await fetch(`${url}?retry=1`, { method: 'POST', headers: { 'x-sign': 'abc' }, body: 'hello' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('abc:hello');
  });

  it('answers another method or path 404 in the plugin shape, without calling the handler', async () => {
    let called = false;
    const url = await serve({}, async (_request, response) => {
      called = true;
      answer(response, 200, 'ok');
    });
    const wrongMethod = await fetch(url);
    const wrongPath = await fetch(url.replace('/hook', '/other'), { method: 'POST', body: '' });
    expect([wrongMethod.status, wrongPath.status]).toEqual([404, 404]);
    expect(await wrongPath.text()).toBe('not found');
    expect(called).toBe(false);
  });

  it('answers a failing request 500 and keeps serving the next one', async () => {
    let calls = 0;
    const url = await serve({}, async (_request, response) => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      answer(response, 200, 'ok');
    });
    const failed = await fetch(url, { method: 'POST', body: '' });
    expect([failed.status, await failed.text()]).toEqual([500, 'internal error']);
    const next = await fetch(url, { method: 'POST', body: '' });
    expect([next.status, await next.text()]).toEqual([200, 'ok']);
  });

  it('reads a body over the byte limit as undefined', async () => {
    const url = await serve({}, async (request, response) => {
      const body = await readCallbackBody(request, 4);
      answer(response, body === undefined ? 413 : 200, body ?? 'too large');
    });
    expect((await fetch(url, { method: 'POST', body: '1234' })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', body: '12345' })).status).toBe(413);
  });

  it('shows an IPv6 host in brackets, and rejects a taken port so listen can be tried again', async () => {
    const url = await serve({ host: '::1' }, async (_request, response) => answer(response, 200, 'ok'));
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+\/hook$/);
    const port = Number(new URL(url).port);
    const taken = new CallbackServer({ host: '::1', port, path: '/hook', answer });
    await expect(taken.listen(async () => undefined)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(taken.started).toBe(false);
  });
});
