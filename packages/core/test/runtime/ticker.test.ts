import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** Tool texts of every call the channel received, after t0. */
function toolTexts(channel: ReturnType<typeof setup>['channel'], t0: number) {
  return channel.calls.map((call) => ({ at: call.at - t0, tools: call.payload.tools.join(' | '), status: call.payload.status }));
}

describe('ticker (seed design 000 test plan)', () => {
  it('1. a running tool shows 3 s, then 6 s', async () => {
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    await settle(3000);
    expect(card.view().tools[0]!.text).toBe('shell: `npm test`（执行中 · 3 秒）');
    expect(toolTexts(channel, t0).at(-1)).toEqual({ at: 3000, tools: 'shell: `npm test`（执行中 · 3 秒）', status: 'running' });
    await settle(3000);
    expect(toolTexts(channel, t0).at(-1)).toEqual({ at: 6000, tools: 'shell: `npm test`（执行中 · 6 秒）', status: 'running' });
  });

  it('2. no tick after the tool result', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('c1', 'shell', '{"command":"npm test"}');
    await settle(3500);
    card.toolFinished('c1', 'ok');
    await settle(1000);
    const count = channel.calls.length;
    await settle(12_000);
    expect(channel.calls.length).toBe(count);
    expect(channel.calls.at(-1)!.payload.tools).toEqual(['shell: `npm test`（完成 · ok）']);
  });

  it('3. no ticker while the model only thinks (no tools)', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'thinking only' });
    card.thinking('hmm');
    await settle(10_000);
    expect(cards.diagnostics().tickingCards).toBe(0);
    // run.started and the thinking text, pushed together, go out in one call (the channel has room): nothing else.
    expect(channel.calls.length).toBe(1);
    expect(channel.calls[0]!.payload.thinking).toBe('hmm');
  });

  it.each(['complete', 'cancel', 'fail'] as const)('4. no tick after %s', async (end) => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('c1', 'shell', '{"command":"sleep 100"}');
    await settle(3500);
    if (end === 'complete') card.complete('done');
    else if (end === 'cancel') card.cancel('user');
    else card.fail('boom');
    await card.finalDelivery;
    const count = channel.calls.length;
    await settle(15_000);
    expect(cards.diagnostics().tickingCards).toBe(0);
    expect(cards.diagnostics().tickTimers).toBe(0);
    expect(channel.calls.length).toBe(count);
    expect(card.view().tools[0]!.text).not.toMatch(/执行中/);
  });

  it('5. parallel tools are timed apart', async () => {
    const { cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('a', 'shell', '{"command":"npm test"}');
    await settle(2000);
    card.toolStarted('b', 'read_file');
    await settle(4000);
    const [a, b] = card.view().tools;
    expect(a!.text).toBe('shell: `npm test`（执行中 · 6 秒）');
    expect(b!.text).toBe('read_file：执行中…（4 秒）');
  });

  it('6. under 1 s no duration is shown', async () => {
    const { cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('a', 'read_file');
    await settle(999);
    expect(card.view().tools[0]!.text).toBe('read_file：执行中…');
    await settle(1);
    expect(card.view().tools[0]!.text).toBe('read_file：执行中…（1 秒）');
  });

  it('7. a result before its start makes a line with no timer that never keeps the ticker alive', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolFinished('ghost', 'late result');
    card.toolStarted('ghost', 'shell', '{"command":"ls"}');
    await settle(10_000);
    expect(cards.diagnostics().tickingCards).toBe(0);
    expect(card.view().tools).toHaveLength(1);
    expect(card.view().tools[0]!.elapsedMs).toBe(0);
    expect(channel.calls.length).toBe(1);
  });

  it('8. tick ms is injectable: config and env', async () => {
    const fromConfig = setup({ overrides: { tickMs: 1000 } });
    const card = fromConfig.cards.open('memory');
    card.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(1000);
    expect(fromConfig.channel.calls.at(-1)!.payload.tools[0]).toBe('shell: `make`（执行中 · 1 秒）');
    vi.useRealTimers();

    const fromEnv = setup({ overrides: { tickMs: 1000 } }, { MEMORY_CARD_TOOL_TICK_MS: '5000' });
    expect(fromEnv.cards.settings('memory').tickMs).toBe(5000);
    const card2 = fromEnv.cards.open('memory');
    card2.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(4900);
    expect(fromEnv.channel.calls.at(-1)!.payload.tools[0]).toBe('shell: `make`（执行中）');
    await settle(100);
    expect(fromEnv.channel.calls.at(-1)!.payload.tools[0]).toBe('shell: `make`（执行中 · 5 秒）');
  });

  it('9. a failed update never stops the ticker', async () => {
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    card.toolStarted('a', 'shell', '{"command":"sleep 20"}');
    await settle(100);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 500' } });
    await settle(2900); // tick at 3000 fails
    await settle(3000); // retry + tick at 6000
    const accepted = channel.calls.filter((call) => !call.failure).map((call) => call.at - t0);
    expect(channel.calls.some((call) => call.failure === 'transient')).toBe(true);
    expect(accepted.some((at) => at >= 4000)).toBe(true);
    expect(channel.messages.get('m1')!.history.at(-1)!.tools[0]).toBe('shell: `sleep 20`（执行中 · 6 秒）');
  });

  it('10. regression: args deltas do not reset the start time', async () => {
    const { cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('a', 'shell', '{"command":"npm');
    await settle(2000);
    card.toolArgsDelta('a', ' test"}');
    card.toolStarted('a', 'shell', '{"command":"npm test"}');
    await settle(1000);
    expect(card.view().tools[0]!.text).toBe('shell: `npm test`（执行中 · 3 秒）');
  });

  it('uses one timer per interval for many cards', async () => {
    const { cards } = setup();
    for (let i = 0; i < 500; i++) cards.open('memory').toolStarted('a', 'shell');
    expect(cards.diagnostics().tickingCards).toBe(500);
    expect(cards.diagnostics().tickTimers).toBe(1);
  });

  it('two channels in one composition keep their own tick ms', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const fast = memoryChannel({ id: 'fast', overrides: { tickMs: 1000 } });
    const slow = memoryChannel({ id: 'slow', overrides: { tickMs: 4000 } });
    const cards = createProgressCards({ channels: [fast, slow], logger: silentLogger, env: {} });
    cards.open('fast').toolStarted('a', 'shell', '{"command":"x"}');
    cards.open('slow').toolStarted('a', 'shell', '{"command":"x"}');
    await settle(4000);
    const fastTicks = fast.calls.filter((call) => call.op === 'update').length;
    const slowTicks = slow.calls.filter((call) => call.op === 'update').length;
    expect(fastTicks).toBe(4);
    expect(slowTicks).toBe(1);
    expect(cards.diagnostics().tickTimers).toBe(2);
  });

  it('invalid env falls back to the configured tick with one warning naming variable and value', () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
    const cards = createProgressCards({ channels: [memoryChannel({ overrides: { tickMs: 2000 } })], logger, env: { MEMORY_CARD_TOOL_TICK_MS: '-5' } });
    expect(cards.settings('memory').tickMs).toBe(2000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('MEMORY_CARD_TOOL_TICK_MS="-5"');
    const other = createProgressCards({ channels: [memoryChannel()], logger, env: { MEMORY_CARD_TOOL_TICK_MS: 'abc' } });
    expect(other.settings('memory').tickMs).toBe(3000);
  });
});
