import { createServer, type Server } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, DEFAULT_TEAMS_BOT as BOT, startTeamsEmulator, type TeamsEmulator } from '../src/index.js';

let emulator: TeamsEmulator | undefined;
let server: Server | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function token(secret: string = BOT.appPassword): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: BOT.appId, client_secret: secret, scope: 'https://api.botframework.com/.default' });
  const response = await fetch(`${emulator!.loginUrl}/${BOT.tenantId}/oauth2/v2.0/token`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function call(method: 'POST' | 'PUT', path: string, body: unknown, bearer?: string) {
  const auth = bearer ?? ((await token()).body.access_token as string);
  const response = await fetch(`${emulator!.serviceUrl}v3/conversations/${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { id?: string; error?: { code: string; message: string } } };
}

const enc = encodeURIComponent;
const chunk = (text: string, streamType: string, streamSequence?: number, streamId?: string) => ({
  type: streamType === 'final' ? 'message' : 'typing',
  text,
  entities: [{ type: 'streaminfo', streamType, ...(streamId ? { streamId } : {}), ...(streamSequence !== undefined ? { streamSequence } : {}) }],
});

describe('Teams Bot Connector emulator', () => {
  it('hands out client-credentials tokens, refuses a wrong secret, and every connector call needs a live token', async () => {
    emulator = await startTeamsEmulator();
    expect(await token('wrong')).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const ok = await token();
    expect(ok).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3600 } });
    const refused = await call('POST', `${enc(BOT.groupChat)}/activities`, { type: 'message', text: 'hi' }, 'nope');
    expect(refused).toMatchObject({ status: 401, body: { error: { code: 'Unauthorized' } } });
    emulator.auth.expireAll();
    expect((await call('POST', `${enc(BOT.groupChat)}/activities`, { type: 'message', text: 'hi' }, ok.body.access_token as string)).status).toBe(401);
  });

  it('sends, replies to and updates an activity; 404 once deleted; 413 over the size limit; 404 for an unknown conversation', async () => {
    emulator = await startTeamsEmulator();
    const sent = await call('POST', `${enc(BOT.channel)}/activities`, { type: 'message', text: 'Running' });
    expect(sent.status).toBe(201);
    const id = sent.body.id!;
    const reply = await call('POST', `${enc(BOT.channel)}/activities/${id}`, { type: 'message', text: 'part 2' });
    expect(emulator.activity(BOT.channel, reply.body.id!)).toMatchObject({ replyToId: id, text: 'part 2' });
    expect((await call('PUT', `${enc(BOT.channel)}/activities/${id}`, { type: 'message', text: 'Done' })).status).toBe(200);
    expect(emulator.activity(BOT.channel, id)).toMatchObject({ text: 'Done', updates: 1 });
    emulator.deleteActivity(BOT.channel, id);
    expect(await call('PUT', `${enc(BOT.channel)}/activities/${id}`, { type: 'message', text: 'again' })).toMatchObject({ status: 404, body: { error: { code: 'ActivityNotFound' } } });
    expect(await call('POST', `${enc(BOT.channel)}/activities`, { type: 'message', text: 'x'.repeat(21_000) })).toMatchObject({ status: 413, body: { error: { code: 'MessageSizeTooBig' } } });
    expect((await call('POST', `${enc('19:nope@thread.v2')}/activities`, { type: 'message', text: 'x' })).status).toBe(404);
  });

  it('answers 429 with Retry-After once a conversation had 7 calls in a second; other conversations go on', async () => {
    emulator = await startTeamsEmulator({ clock: createManualClock(1_000_000) });
    const bearer = (await token()).body.access_token as string;
    for (let i = 0; i < 7; i += 1) expect((await call('POST', `${enc(BOT.groupChat)}/activities`, { type: 'message', text: `m${i}` }, bearer)).status).toBe(201);
    const limited = await call('POST', `${enc(BOT.groupChat)}/activities`, { type: 'message', text: 'm8' }, bearer);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call('POST', `${enc(BOT.channel)}/activities`, { type: 'message', text: 'elsewhere' }, bearer)).status).toBe(201);
  });

  it('counts a call in the windows when it arrives, not when its slow answer leaves (as the service counts)', async () => {
    const clock = createManualClock(1_000_000);
    emulator = await startTeamsEmulator({ clock });
    const bearer = (await token()).body.access_token as string;
    const send = (text: string) => call('POST', `${enc(BOT.groupChat)}/activities`, { type: 'message', text }, bearer);
    const arrived = async (faultId: string, hits: number) => {
      while ((emulator!.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < hits) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // Seven calls arrive at once and answer slowly; a second later (on the emulator's clock) an eighth
    // arrives while they are still being answered: it is in a window of its own.
    const slow = emulator.faults.add({ route: 'sendToConversation', times: 7, latencyMs: 300 });
    const first = Array.from({ length: 7 }, (_, i) => send(`m${i}`));
    await arrived(slow, 7);
    clock.advance(1001);
    const eighth = await send('m7');
    expect(eighth.status).toBe(201);
    expect((await Promise.all(first)).map((answer) => answer.status)).toEqual(Array(7).fill(201));
    // The other way round: a slow call that arrives inside a full window is refused even though its answer leaves after it.
    clock.advance(60_000);
    for (let i = 0; i < 7; i += 1) expect((await send(`n${i}`)).status).toBe(201);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'sendToConversation', times: 1, latencyMs: 300 });
    const eighthInWindow = send('n7');
    await arrived(late, 1);
    clock.advance(1000);
    expect((await eighthInWindow).status).toBe(429);
  });

  it('streams in a 1:1 chat: start 201, chunks that extend the text 202, an older sequence dropped, the final closes it', async () => {
    // Room for the nine calls in one conversation (7 a second by default).
    emulator = await startTeamsEmulator({ limits: { perConversationWindows: [{ limit: 100, intervalMs: 1000 }] } });
    const path = `${enc(BOT.personalChat)}/activities`;
    expect(await call('POST', `${enc(BOT.groupChat)}/activities`, chunk('Hello', 'streaming', 1))).toMatchObject({ status: 403, body: { error: { code: 'ContentStreamNotAllowed' } } });
    const start = await call('POST', path, chunk('Searching…', 'informative', 1));
    expect(start.status).toBe(201);
    const streamId = start.body.id!;
    expect((await call('POST', path, chunk('A brown', 'streaming', 2, streamId))).status).toBe(202);
    expect(await call('POST', path, chunk('A red', 'streaming', 3, streamId))).toMatchObject({ status: 400 });
    expect(await call('POST', path, chunk('A brown fox', 'streaming', 2, streamId))).toMatchObject({ status: 202, body: { error: { code: 'ContentStreamSequenceOrderPreConditionFailed' } } });
    expect((await call('POST', path, chunk('A brown fox', 'streaming', 3, streamId))).status).toBe(202);
    expect((await call('POST', path, chunk('Second', 'streaming', 1))).status).toBe(403);
    expect((await call('POST', path, { ...chunk('A brown fox jumped.', 'final', undefined, streamId), attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }] })).status).toBe(202);
    expect(emulator.activity(BOT.personalChat, streamId)).toMatchObject({ type: 'message', text: 'A brown fox jumped.', stream: { state: 'final', informative: 'Searching…' } });
    expect((await call('POST', path, chunk('A brown fox jumped. More', 'streaming', 4, streamId))).body.error?.message).toBe('Content stream is not allowed on an already completed streamed message');
  });

  it('a stream ends two minutes after its start, and the user\'s Stop ends it with "Content stream was canceled by user"', async () => {
    const clock = createManualClock(1_000_000);
    emulator = await startTeamsEmulator({ clock });
    const path = `${enc(BOT.personalChat)}/activities`;
    const first = (await call('POST', path, chunk('One', 'streaming', 1))).body.id!;
    clock.advance(120_000);
    expect((await call('POST', path, chunk('One two', 'streaming', 2, first))).body.error?.message).toBe('Content stream finished due to exceeded streaming time.');
    const second = (await call('POST', path, chunk('Two', 'streaming', 1))).body.id!;
    emulator.stopStreamByUser(BOT.personalChat, second);
    expect(await call('POST', path, chunk('Two three', 'streaming', 2, second))).toMatchObject({ status: 403, body: { error: { code: 'ContentStreamNotAllowed', message: 'Content stream was canceled by user' } } });
    expect(emulator.activity(BOT.personalChat, second)).toMatchObject({ text: 'Two', stream: { state: 'canceled' } });
  });

  it('delivers a click as an adaptiveCard/action invoke signed with a key its JWKS publishes; a forged one is not', async () => {
    emulator = await startTeamsEmulator();
    const card = { type: 'AdaptiveCard', version: '1.5', body: [], actions: [{ type: 'Action.Execute', title: 'Stop', verb: 'pc.stop', data: { card: 'c1' } }] };
    const sent = await call('POST', `${enc(BOT.channel)}/activities`, { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }] });
    const seen: { body: Record<string, unknown>; verified: boolean }[] = [];
    const jwks = createRemoteJWKSet(new URL(`${emulator.baseUrl}/v1/.well-known/keys`));
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (part) => (raw += part));
      request.on('end', async () => {
        const jwt = (request.headers.authorization ?? '').replace(/^Bearer /, '');
        const verified = await jwtVerify(jwt, jwks, { issuer: 'https://api.botframework.com', audience: BOT.appId }).then(() => true, () => false);
        seen.push({ body: JSON.parse(raw) as Record<string, unknown>, verified });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: 'Stopping' }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    emulator.setBotEndpoint({ url: `http://127.0.0.1:${port}/api/messages`, appId: BOT.appId });
    expect(await emulator.click({ conversationId: BOT.channel, activityId: sent.body.id!, button: 'Nope', user: { id: '29:1owner' } })).toMatchObject({ error: 'no-such-button' });
    const result = await emulator.click({ conversationId: BOT.channel, activityId: sent.body.id!, button: 'Stop', user: { id: '29:1owner' } });
    expect(result).toMatchObject({ status: 200, body: { statusCode: 200, value: 'Stopping' } });
    await emulator.click({ conversationId: BOT.channel, activityId: sent.body.id!, button: 'Stop', user: { id: '29:1owner' }, forged: true });
    expect(seen.map((s) => s.verified)).toEqual([true, false]);
    expect(seen[0]!.body).toMatchObject({ type: 'invoke', name: 'adaptiveCard/action', replyToId: sent.body.id, serviceUrl: emulator.serviceUrl, value: { action: { verb: 'pc.stop', data: { card: 'c1' } } } });
  });
});
