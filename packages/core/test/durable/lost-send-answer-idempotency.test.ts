import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, silentLogger, type SendRequest } from '../../src/index.js';
import { faultCase, loadFaultCases } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { scriptedPlatform } from './scripted-platform.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

describe('F19 a send whose answer was lost, followed by failures', () => {
  const c = faultCase(cases, 'F19');
  it('every retry keeps the idempotency key: exactly one message, showing the final', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = scriptedPlatform({
      send: [{ kind: 'late', lateMs: 400 }, { kind: 'transient' }, { kind: 'transient' }, { kind: 'transient' }],
    });
    const keys: string[] = [];
    const send = platform.plugin.transport.send;
    const plugin = { ...platform.plugin, transport: { ...platform.plugin.transport, send: (request: SendRequest<never, never>) => {
      keys.push(request.idempotencyKey);
      return send(request);
    } } };
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    const t0 = Date.now();
    for (const event of c.events) card.push({ ...event, at: t0 + event.at });
    await settle(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(platform.channel.messages.size).toBe(1);
    expect(platform.channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'FINAL-ANSWER' });
    expect(new Set(keys).size).toBe(1);
  });
});
