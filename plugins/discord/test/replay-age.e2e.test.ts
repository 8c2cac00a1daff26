import { generateKeyPairSync, sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordInteractions } from '../src/index.js';
import { CustomIdRegistry } from '../src/interaction/custom-id.js';

// A correctly signed interaction whose signed timestamp is old (or far ahead) is a replay: the
// endpoint refuses it with 401 over loopback, as the Slack and Feishu endpoints do.

const NOW_MS = 1_800_000_000_000;
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const der = publicKey.export({ format: 'der', type: 'spki' });
const publicKeyHex = der.subarray(der.length - 32).toString('hex');
let endpoint: DiscordInteractions | undefined;

afterEach(async () => {
  await endpoint?.stop();
  endpoint = undefined;
});

async function post(timestamp: string): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ id: '1', type: 1, application_id: '1', token: 't', version: 1 });
  const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
  const response = await fetch(String(endpoint?.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe('Discord interactions endpoint: replayed signed requests', () => {
  it('answers a fresh PING and refuses correctly signed requests stamped more than five minutes from now', async () => {
    endpoint = new DiscordInteractions({ publicKey: publicKeyHex, host: '127.0.0.1', port: 0, path: '/discord/interactions', customIds: new CustomIdRegistry(), now: () => NOW_MS });
    await endpoint.start(() => Promise.reject(new Error('a PING is not a click')));
    const seconds = (ms: number) => String(Math.floor(ms / 1000));

    expect(await post(seconds(NOW_MS))).toEqual({ status: 200, text: JSON.stringify({ type: 1 }) });
    expect((await post(seconds(NOW_MS - 4 * 60_000))).status).toBe(200);
    for (const stale of ['1', '946684800', seconds(NOW_MS - 6 * 60_000), seconds(NOW_MS + 6 * 60_000), '', 'abc']) {
      expect(await post(stale), `timestamp ${JSON.stringify(stale)}`).toEqual({ status: 401, text: 'invalid request signature' });
    }
  });
});
