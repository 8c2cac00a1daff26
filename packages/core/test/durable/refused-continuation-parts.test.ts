import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards } from '../../src/index.js';
import { faultCase, loadFaultCases, recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';
import { scriptedPlatform, type PlatformAnswer } from './scripted-platform.js';

const cases = loadFaultCases(new URL('../fixtures/durable-cases.jsonl', import.meta.url));

afterEach(() => vi.useRealTimers());

describe('F20 continuation cards of a long answer that every reply refuses', () => {
  const c = faultCase(cases, 'F20');
  it('finalDelivery is not ok and names the missing parts; an error names the card and the parts', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const refused: PlatformAnswer[] = Array.from({ length: 100 }, () => ({ kind: 'transient' }));
    const platform = scriptedPlatform({ reply: refused }, { answerChunkChars: 10_000 });
    const logger = recordingLogger();
    const cards = createProgressCards({ channels: [platform.plugin], logger, env: {} });
    const card = cards.open('memory');
    card.push({ ...c.events[0], at: Date.now() });
    const answer = Array.from({ length: 850 }, (_, i) => (i % 40 === 0 ? '```js\nconst line = 1;\n```' : `- item ${i}: prose that goes on for a while`)).join('\n');
    expect(answer.length).toBeGreaterThan(25_000);
    card.complete(answer);
    await settle(60_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', error: 'continuation parts 2, 3, 4 of 4 undeliverable', continuations: { delivered: 0, total: 3 } });
    const entry = logger.entries.find((e) => e.message === 'final continuation parts undeliverable: every retry failed');
    expect(entry?.fields).toMatchObject({ card: expect.stringContaining(card.id.slice(0, 20)), parts: [2, 3, 4] });
  });

  it('parts that fail and then get through are delivered within the final retries: ok', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const platform = scriptedPlatform({ reply: [{ kind: 'transient' }, { kind: 'transient' }] }, { answerChunkChars: 10 });
    const cards = createProgressCards({ channels: [platform.plugin], env: {}, logger: recordingLogger() });
    const card = cards.open('memory');
    card.complete('0123456789abcdefghij');
    await settle(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, continuations: { delivered: 1, total: 1 } });
  });
});
