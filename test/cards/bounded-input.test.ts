/**
 * Bounded render cost (issue 30 item 4): a 10 MB answer, a 10 MB delta and a 10 MB tool field leave
 * a card of bounded size on every channel, with a notice that text was cut, and the core does a
 * bounded amount of work for them (counted as characters handed to the redactor, not as time). One
 * such card does not keep another card's final on the same channel from being delivered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardState, createProgressCards, memoryChannel, redactSecrets, silentLogger, type CardView } from '@progresscard/core';
import { fakeTime } from '@progresscard/core/testing';
import { RENDERERS } from '../support/renderers.js';
import { AT, smallCardBeside, tenMegabytesOf } from './huge-card-support.js';

/** 10 MB of prose made of `seed`. */
const huge = (seed: string): string => tenMegabytesOf(`${seed} `);

/** The three huge inputs, each as a card state; `redacted` counts the characters the card handed to the redactor. */
const CASES: Record<string, (state: CardState) => void> = {
  'a 10 MB final answer': (state) => state.apply({ type: 'run.completed', answer: huge('answer') }, AT),
  'a 10 MB answer delta': (state) => {
    state.apply({ type: 'answer.delta', text: huge('delta') }, AT);
    state.apply({ type: 'run.completed' }, AT);
  },
  'a 10 MB tool argument and result': (state) => {
    state.apply({ type: 'tool.started', callId: 'c1', name: 'Write', args: { file_path: '/tmp/big.txt', content: huge('file') } }, AT);
    state.apply({ type: 'tool.started', callId: 'c2', name: 'Bash', args: huge('{"command":"cat') }, AT);
    state.apply({ type: 'tool.finished', callId: 'c1', summary: huge('written') }, AT);
    state.apply({ type: 'tool.finished', callId: 'c2', summary: huge('output'), isError: true }, AT);
    state.apply({ type: 'run.failed', error: huge('error') }, AT);
  },
};

function hugeCard(apply: (state: CardState) => void): { view: CardView; redacted: number } {
  let redacted = 0;
  const state = new CardState({
    startedAt: AT,
    locale: 'en',
    redact: (text) => {
      redacted += text.length;
      return redactSecrets(text);
    },
  });
  state.apply({ type: 'run.started', title: 'Huge input' }, AT);
  apply(state);
  const view = state.view(AT);
  state.view(AT + 1000);
  return { view, redacted };
}

describe('huge inputs in the core', () => {
  for (const [name, apply] of Object.entries(CASES)) {
    it(`${name}: the card holds at most 200 000 characters of it and the redactor reads a bounded amount`, () => {
      const { view, redacted } = hugeCard(apply);
      expect(view.answer.length).toBeLessThanOrEqual(200_100);
      for (const tool of view.tools) {
        expect(tool.detail.length).toBeLessThanOrEqual(80);
        expect(tool.summary?.length ?? 0).toBeLessThanOrEqual(2_000);
      }
      expect(view.error?.length ?? 0).toBeLessThanOrEqual(4_000);
      // Without the caps every 10 MB field was redacted whole (30 MB and more for the tool case).
      expect(redacted).toBeLessThan(500_000);
    }, 60_000);
  }

  it('the answer says it was cut, and by how much', () => {
    const { view } = hugeCard(CASES['a 10 MB final answer']!);
    expect(view.answer).toMatch(/… answer cut: 9,800,000 more characters not shown$/);
  }, 60_000);
});

describe('huge inputs on every channel', () => {
  for (const [channel, make] of Object.entries(RENDERERS)) {
    for (const [name, apply] of Object.entries(CASES)) {
      it(`${channel}, ${name}: a card and continuation parts of bounded size`, () => {
        const { view } = hugeCard(apply);
        const renderer = make();
        const payloads = [renderer.render(view), ...(renderer.renderContinuations?.(view) ?? [])];
        const sizes = payloads.map((payload) => JSON.stringify(payload).length);
        // Every channel cuts further to its own limits; what matters here is that nothing near 10 MB is sent.
        expect(Math.max(...sizes)).toBeLessThan(100_000);
        expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(400_000);
      }, 60_000);
    }
  }
});

describe('one huge card next to another on the same channel', () => {
  beforeEach(() => vi.useFakeTimers({ now: AT }));
  afterEach(() => vi.useRealTimers());

  it('the other card\'s final is delivered, and the huge card ends with the cut notice', async () => {
    const time = fakeTime(vi);
    const memory = memoryChannel();
    const cards = createProgressCards({ channels: [memory], logger: silentLogger, env: {} });
    const big = cards.open('memory', undefined, { locale: 'en', title: 'Huge' });
    const small = cards.open('memory', undefined, { locale: 'en', title: 'Small' });
    big.push({ type: 'tool.started', callId: 'c1', name: 'Write', args: { file_path: '/tmp/big.txt', content: huge('file') } });
    big.push({ type: 'answer.delta', text: huge('delta') });
    small.push({ type: 'answer.delta', text: 'All checks passed.' });
    big.push({ type: 'tool.finished', callId: 'c1', summary: huge('written') });
    big.push({ type: 'run.completed', answer: huge('answer') });
    small.push({ type: 'run.completed' });
    await time.advance(30_000);
    const [bigFinal, smallFinal] = await Promise.all([big.finalDelivery, small.finalDelivery]);
    expect(smallFinal.ok).toBe(true);
    expect(memory.messages.get(smallFinal.message!.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'All checks passed.' });
    expect(bigFinal.ok).toBe(true);
    const shown = memory.messages.get(bigFinal.message!.id)!.history.at(-1)!;
    expect(shown.status).toBe('completed');
    expect(shown.answer).toMatch(/answer cut: 9,800,000 more characters not shown/);
    await cards.shutdown();
  }, 60_000);
});

/**
 * The same next to another card on one channel, with each channel's real renderer drawing every card
 * the core asks for (the in-memory transport records the core's own view of it): the huge card's
 * payloads stay small, and the other card's final is delivered within a budget slot of the
 * (fake) time it is delivered alone. Render cost itself is measured by `npm run bench:render`, not here.
 */
describe('one huge card next to another, on each channel\'s renderer', () => {
  beforeEach(() => vi.useFakeTimers({ now: AT }));
  afterEach(() => vi.useRealTimers());

  for (const [channel, make] of Object.entries(RENDERERS)) {
    it(`${channel}: the other card's final is delivered within a budget slot of when it is alone, and every drawn payload stays small`, async () => {
      const alone = await smallCardBeside(make(), undefined);
      const beside = await smallCardBeside(make(), { delta: huge('delta'), answer: huge('answer') });
      expect(beside.smallFinal.ok).toBe(true);
      expect(beside.bigFinal?.ok).toBe(true);
      // At most a slot or two of the channel's budget (5 calls a second) later: the huge card's own final may go first.
      expect(beside.waitedMs).toBeLessThanOrEqual(alone.waitedMs + 1_000);
      // Every payload drawn for the huge card (main message and continuation parts, each attempt) is far from 10 MB.
      expect(beside.drawn.length).toBeGreaterThan(alone.drawn.length);
      expect(Math.max(...beside.drawn.map(({ payload }) => JSON.stringify(payload).length))).toBeLessThan(100_000);
    }, 60_000);
  }
});
