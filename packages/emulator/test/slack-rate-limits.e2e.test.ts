import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type SlackEmulator } from '../src/index.js';

let emulator: SlackEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const { botToken, channel } = DEFAULT_SLACK_WORKSPACE;

async function call(method: string, args: Record<string, unknown>): Promise<{ ok: boolean; error?: string; ts?: string }> {
  const response = await fetch(`${emulator!.apiUrl}${method}`, { method: 'POST', headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(args) });
  return (await response.json()) as { ok: boolean; error?: string; ts?: string };
}

describe('Slack emulator rate limits', () => {
  it('counts a call in the windows when it arrives, not when its slow answer leaves (as Slack counts)', async () => {
    const clock = createManualClock(1_000_000);
    // One chat.update a second for the token, so that two calls show the window.
    emulator = await startSlackEmulator({ clock, limits: { updateWindows: [{ limit: 1, intervalMs: 1000 }] } });
    const { ts } = await call('chat.postMessage', { channel, text: 'card' });
    const update = (text: string) => call('chat.update', { channel, ts, text });
    const arrived = async (faultId: string) => {
      while ((emulator!.faults.list().find((rule) => rule.id === faultId)?.hits ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // A slow update arrives in a fresh window; a second later (on the emulator's clock) another arrives
    // while the first is still being answered: it is in a window of its own, and both pass.
    const slow = emulator.faults.add({ route: 'chat.update', times: 1, latencyMs: 300 });
    const first = update('one');
    await arrived(slow);
    clock.advance(1001);
    expect((await update('two')).ok).toBe(true);
    expect((await first).ok).toBe(true);
    // The other way round: a slow update that arrives in a full window is refused though it is answered after it.
    clock.advance(60_000);
    expect((await update('three')).ok).toBe(true);
    clock.advance(500);
    const late = emulator.faults.add({ route: 'chat.update', times: 1, latencyMs: 300 });
    const inFullWindow = update('four');
    await arrived(late);
    clock.advance(1000);
    expect(await inFullWindow).toMatchObject({ ok: false, error: 'ratelimited' });
  });
});
