import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type BudgetedCall } from '../../src/index.js';
import { formatFooter } from '../../src/plugin/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

async function run(switches: Record<string, unknown>) {
  const { channel, cards } = setup({ switches });
  const card = cards.open('memory', undefined, { locale: 'en' });
  card.start({ title: 'Quota', locale: 'en' });
  card.toolStarted('c1', 'shell', { command: 'make' });
  await settle(4000);
  card.toolFinished('c1', 'built');
  await settle(4000);
  card.complete('done');
  await card.finalDelivery;
  return channel;
}

describe('the quota footer (debug style, channels with a monthly quota)', () => {
  it('the final card counts its calls, its own included, against the quota', async () => {
    const channel = await run({ footerStyle: 'debug', monthlyQuota: 5000 });
    const accepted = channel.calls.filter((call) => !call.failure);
    const final = accepted.at(-1)!.payload;
    expect(final.footer).toContain(`quota ${accepted.length} of 5,000/month`);
  });

  it('a failed call counts too', async () => {
    const { channel, cards } = setup({ switches: { footerStyle: 'debug', monthlyQuota: 5000 } });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Quota', locale: 'en' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'timeout' } });
    card.complete('done');
    await settle(20_000);
    await card.finalDelivery;
    expect(channel.calls).toHaveLength(3);
    expect(channel.calls.at(-1)!.payload.footer).toContain('quota 3 of 5,000/month');
  });

  it('shows nothing without a quota or in the compact style', async () => {
    for (const switches of [{ footerStyle: 'debug' }, { footerStyle: 'compact', monthlyQuota: 5000 }]) {
      const channel = await run(switches);
      expect(channel.calls.some((call) => call.payload.footer.includes('quota'))).toBe(false);
    }
    expect(formatFooter({ durationMs: 1000, toolCount: 0, sentAt: 0, quota: { calls: 12, monthlyQuota: 10_000 } }, { style: 'debug', locale: 'zh-CN', timeZone: 'UTC' }))
      .toContain('配额 12 / 10,000 次每月');
  });
});

describe('extra calls (image uploads, reactions) a transport makes', () => {
  it('draw a slot under the budget keys of their own kind and count as calls of the card', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ switches: { footerStyle: 'debug', monthlyQuota: 5000 } });
    const kinds: string[] = [];
    const plugin = {
      ...channel,
      budgetKeys: (call: BudgetedCall) => {
        kinds.push(call.kind);
        return [{ key: `memory:${call.kind}`, windows: [{ limit: 50, intervalMs: 1000 }] }];
      },
      transport: {
        ...channel.transport,
        send: async (request: Parameters<typeof channel.transport.send>[0]) => {
          await request.extraCalls?.acquire('image-upload');
          return channel.transport.send(request);
        },
      },
    };
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'Upload', locale: 'en' });
    await settle(1000);
    card.complete('done');
    await settle(5000);
    await card.finalDelivery;
    expect(kinds).toContain('image-upload');
    // One send, its upload and the final update: the final says 3.
    expect(channel.calls.at(-1)!.payload.footer).toContain('quota 3 of 5,000/month');
  });
});
