import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';
import { resolveVerbosity } from '../../src/card/verbosity.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

async function run(card: ReturnType<ReturnType<typeof setup>['cards']['open']>) {
  card.start({ title: 'Fix the build' });
  card.thinking('let me look');
  card.toolStarted('c1', 'shell', { command: 'npm test' });
  await settle(2000);
  card.toolFinished('c1', '3 failed');
  card.toolStarted('c2', 'read_file', { path: 'src/a.ts' });
  card.answer('Found it.');
  await settle(2000);
  card.complete('Fixed the import.');
  await card.finalDelivery;
}

describe('verbosity profiles', () => {
  it('detailed (default) shows thinking, every tool call and the answer while running', async () => {
    const { channel, cards } = setup();
    await run(cards.open('memory'));
    const history = channel.messages.get('m1')!.history;
    expect(history.some((p) => p.thinking.includes('let me look'))).toBe(true);
    expect(history.at(-1)!.tools).toHaveLength(2);
  });

  it('compact shows only the status and the current tool call while running, the answer at the end', async () => {
    const { channel, cards } = setup();
    await run(cards.open('memory', undefined, { verbosity: 'compact' }));
    const history = channel.messages.get('m1')!.history;
    const running = history.filter((p) => p.status === 'running');
    expect(running.length).toBeGreaterThan(0);
    for (const payload of running) {
      expect(payload.thinking).toBe('');
      expect(payload.answer).toBe('');
      expect(payload.tools.length).toBeLessThanOrEqual(1);
    }
    expect(running.at(-1)!.tools[0]).toContain('read_file');
    expect(history.at(-1)).toMatchObject({ status: 'completed', answer: 'Fixed the import.', tools: [] });
    expect(history.at(-1)!.footer).toBeTruthy();
  });

  it('quiet posts one card, at the end', async () => {
    const { channel, cards } = setup();
    await run(cards.open('memory', undefined, { verbosity: 'quiet' }));
    expect(channel.calls.filter((call) => !call.failure)).toHaveLength(1);
    expect(channel.calls[0]).toMatchObject({ op: 'send', payload: { status: 'completed', answer: 'Fixed the import.' } });
  });

  it('the channel config chooses per chat type; the run overrides it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ overrides: { verbosity: { group: 'quiet', direct: 'detailed' } } });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    await run(cards.open('memory', 'group-chat', { chatType: 'group' }));
    expect(channel.calls.filter((call) => call.op === 'update')).toHaveLength(0);
    await run(cards.open('memory', 'group-chat', { chatType: 'group', verbosity: 'detailed' }));
    expect(channel.calls.filter((call) => call.op === 'update').length).toBeGreaterThan(0);
  });

  it('defaults: detailed in a direct chat, compact in a group, detailed when the chat type is unknown', () => {
    expect(resolveVerbosity(undefined, undefined, 'direct')).toBe('detailed');
    expect(resolveVerbosity(undefined, undefined, 'group')).toBe('compact');
    expect(resolveVerbosity(undefined, undefined, undefined)).toBe('detailed');
    expect(resolveVerbosity(undefined, 'quiet', 'direct')).toBe('quiet');
    expect(resolveVerbosity('compact', 'quiet', 'direct')).toBe('compact');
  });

  it('a bad verbosity in a channel config is refused, naming field and value', () => {
    expect(() => memoryChannel({ overrides: { verbosity: 'loud' as never } })).toThrow(/verbosity = "loud"/);
  });
});
