import { createPublicKey, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock, DEFAULT_DISCORD_APP as APP, startDiscordEmulator, type DiscordEmulator } from '../src/index.js';

let emulator: DiscordEmulator | undefined;
let server: Server | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function call(method: string, path: string, body?: unknown, token: string = APP.botToken) {
  const response = await fetch(`${emulator!.apiUrl}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bot ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}
const messages = `/channels/${APP.channel}/messages`;

describe('Discord REST emulator', () => {
  it('creates and edits a message, announcing its bucket in X-RateLimit-* headers; deleted → 10008', async () => {
    emulator = await startDiscordEmulator();
    const created = await call('POST', messages, { content: 'Running', embeds: [{ title: 'Refactor', description: 'tools' }] });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-ratelimit-limit')).toBe('5');
    expect(created.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(Number(created.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(4);
    expect(created.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);
    const id = created.body.id as string;
    expect((await call('PATCH', `${messages}/${id}`, { content: 'Done' })).status).toBe(200);
    expect(emulator.message(id)).toMatchObject({ content: 'Done', edits: 1 });
    emulator.deleteMessage(id);
    expect((await call('PATCH', `${messages}/${id}`, { content: 'x' })).body).toMatchObject({ code: 10008 });
  });

  it('an edit the client gave up on is still applied after its injected latency: a late apply, over a newer edit (F17)', async () => {
    emulator = await startDiscordEmulator();
    const id = (await call('POST', messages, { content: 'one' })).body.id as string;
    // The late apply waits 5 s, and the client gives up only once the emulator holds the request, so the
    // newer edit lands first even on a busy machine.
    const fault = emulator.faults.add({ route: 'messages.edit', nth: 1, latencyMs: 5000 });
    const giveUp = new AbortController();
    const late = fetch(`${emulator.apiUrl}${messages}/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bot ${APP.botToken}` }, body: JSON.stringify({ content: 'two (older)' }), signal: giveUp.signal });
    late.catch(() => undefined);
    await vi.waitFor(() => expect(emulator!.faults.list().find((rule) => rule.id === fault)?.hits).toBe(1), { timeout: 30_000, interval: 20 });
    giveUp.abort();
    await expect(late).rejects.toThrow();
    expect((await call('PATCH', `${messages}/${id}`, { content: 'three (newer)' })).status).toBe(200);
    expect(emulator.message(id)!.content).toBe('three (newer)');
    await vi.waitFor(() => expect(emulator!.message(id)!.content).toBe('two (older)'), { timeout: 45_000, interval: 50 });
    // No version on an edit: the late one replaces the newer content.
    expect(emulator.message(id)!.content).toBe('two (older)');
  }, 90_000);

  it('refuses what Discord refuses with 50035 naming the field, 50006, 10003, 50001, 401', async () => {
    emulator = await startDiscordEmulator({ channelsWithoutAccess: ['42'] });
    expect((await call('POST', messages, { content: 'x'.repeat(2001) })).body).toMatchObject({ code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });
    expect((await call('POST', messages, { embeds: [{ description: 'x'.repeat(4097) }] })).body).toMatchObject({ code: 50035, errors: { embeds: { 0: { description: {} } } } });
    expect((await call('POST', messages, { embeds: [{ description: 'x'.repeat(4000) }, { description: 'y'.repeat(2001) }] })).body).toMatchObject({ code: 50035 });
    const button = (id: string) => ({ type: 2, style: 1, label: 'Go', custom_id: id });
    expect((await call('POST', messages, { content: 'x', components: [{ type: 1, components: [button('x'.repeat(101))] }] })).body).toMatchObject({ code: 50035 });
    expect((await call('POST', messages, {})).body).toMatchObject({ code: 50006 });
    expect((await call('POST', '/channels/1/messages', { content: 'x' })).body).toMatchObject({ code: 10003 });
    expect((await call('POST', '/channels/42/messages', { content: 'x' })).body).toMatchObject({ code: 50001 });
    expect((await call('POST', messages, { content: 'x' }, 'wrong')).status).toBe(401);
    expect(emulator.messages()).toEqual([]);
  });

  it('a spent bucket answers 429 with retry_after; a changed limit is announced from the next window', async () => {
    // The window runs on an injected clock: three calls fall in one window however slow the machine is.
    const clock = createManualClock(1_000_000);
    emulator = await startDiscordEmulator({ clock, limits: { createBucket: { limit: 2, windowMs: 400 } } });
    await call('POST', messages, { content: '1' });
    await call('POST', messages, { content: '2' });
    const refused = await call('POST', messages, { content: '3' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(refused.body.retry_after).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    emulator.setBucketLimit('messages.create', { limit: 1, windowMs: 300 });
    clock.advance(Number(refused.body.retry_after) * 1000 + 1);
    const next = await call('POST', messages, { content: '4' });
    expect([next.status, next.headers.get('x-ratelimit-limit'), next.headers.get('x-ratelimit-remaining')]).toEqual([200, '1', '0']);
  });

  it('counts a call in its bucket when it arrives, not when its slow answer leaves (as Discord counts)', async () => {
    const clock = createManualClock(1_000_000);
    // One create a second per channel, so that two calls show the window.
    emulator = await startDiscordEmulator({ clock, limits: { createBucket: { limit: 1, windowMs: 1000 } } });
    const arrived = async (faultId: string) => {
      while ((emulator!.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // A slow create arrives in a fresh window; a second later (on the emulator's clock) another arrives
    // while the first is still being answered: it is in a window of its own, and both pass.
    const slow = emulator.faults.add({ route: 'messages.create', times: 1, latencyMs: 300 });
    const first = call('POST', messages, { content: 'one' });
    await arrived(slow);
    clock.advance(1001);
    expect((await call('POST', messages, { content: 'two' })).status).toBe(200);
    expect((await first).status).toBe(200);
    // The other way round: a slow create that arrives in a spent bucket is refused though it is answered after the reset.
    clock.advance(60_000);
    expect((await call('POST', messages, { content: 'three' })).status).toBe(200);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'messages.create', times: 1, latencyMs: 300 });
    const inSpentBucket = call('POST', messages, { content: 'four' });
    await arrived(late);
    clock.advance(1000);
    expect(await inSpentBucket).toMatchObject({ status: 429, body: { global: false } });
  });

  it('the global limit answers 429 with global: true', async () => {
    emulator = await startDiscordEmulator({ limits: { globalPerSecond: 2, createBucket: { limit: 50, windowMs: 1000 } } });
    await call('POST', messages, { content: '1' });
    await call('POST', messages, { content: '2' });
    const refused = await call('POST', messages, { content: '3' });
    expect(refused).toMatchObject({ status: 429, body: { global: true } });
    expect(refused.headers.get('x-ratelimit-global')).toBe('true');
  });

  it('edits of a message older than an hour hit 30046 after the cap', async () => {
    emulator = await startDiscordEmulator({ limits: { oldMessageEdits: 1 } });
    const id = (await call('POST', messages, { content: 'x' })).body.id as string;
    emulator.ageMessage(id, 3_600_000);
    expect((await call('PATCH', `${messages}/${id}`, { content: 'y' })).status).toBe(200);
    expect((await call('PATCH', `${messages}/${id}`, { content: 'z' })).body).toMatchObject({ code: 30046 });
  });

  it('a button press is POSTed signed with Ed25519; an UPDATE_MESSAGE answer changes the message', async () => {
    emulator = await startDiscordEmulator();
    const publicKey = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(emulator.publicKey, 'hex')]), format: 'der', type: 'spki' });
    const verified: boolean[] = [];
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const ok = verify(null, Buffer.from(String(request.headers['x-signature-timestamp']) + body), publicKey, Buffer.from(String(request.headers['x-signature-ed25519']), 'hex'));
        verified.push(ok);
        if (!ok) return void response.writeHead(401).end('bad signature');
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 7, data: { content: 'Stopped', components: [] } }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    emulator.configureInteractions({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/interactions` });
    const id = (await call('POST', messages, { content: 'Running', components: [{ type: 1, components: [{ type: 2, style: 4, label: 'Stop', custom_id: 'pc|c1|stop|stop' }] }] })).body.id as string;
    expect(await emulator.click({ messageId: id, button: 'Stop', userId: '42', forgeSignature: true })).toMatchObject({ status: 401 });
    expect(await emulator.click({ messageId: id, button: 'Stop', userId: '42' })).toMatchObject({ status: 200, late: false, response: { type: 7 } });
    expect(verified).toEqual([false, true]);
    expect(emulator.message(id)).toMatchObject({ content: 'Stopped', components: [] });
  });
});
