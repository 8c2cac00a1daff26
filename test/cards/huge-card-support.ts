/**
 * What the bounded-render tests share (`bounded-input`, `bounded-tables`): 10 MB inputs made once,
 * and a small card run beside a huge one on the in-memory channel
 * with a real renderer drawing every card the core asks for (fake time).
 */
import { vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type CardRenderer, type CardView, type FinalDelivery } from '@progresscard/core';
import { fakeTime } from '@progresscard/core/testing';

const TEN_MB = 10_000_000;
/** The epoch ms the tests' card states and fake clocks start at. */
export const AT = 1_700_000_000_000;

const made = new Map<string, string>();
/** 10 MB of `unit` repeated, made once per unit (building it is most of these tests' run time). */
export function tenMegabytesOf(unit: string): string {
  const known = made.get(unit);
  if (known !== undefined) return known;
  const text = unit.repeat(Math.ceil(TEN_MB / unit.length)).slice(0, TEN_MB);
  made.set(unit, text);
  return text;
}


/** What the huge card (title `Huge`) is fed: an answer delta first (optional), then its final answer. */
export interface HugeInput {
  readonly delta?: string;
  readonly answer: string;
}

/** One payload the real renderer drew, with the title of the card it was drawn for (`Huge` or `Small`). */
interface DrawnPayload {
  readonly title: string | undefined;
  readonly payload: unknown;
}

/**
 * A small card (title `Small`, answer `All checks passed.`) on the in-memory channel, beside a huge
 * card fed `huge` when given; `renderer` draws every card and continuation the core asks for. Call
 * with fake timers on (`vi.useFakeTimers({ now: AT })`).
 * @returns both finals, what the channel shows of the small card at the end, the fake ms from the
 *   small card's completion to its final's delivery, and every payload drawn.
 */
export async function smallCardBeside(renderer: CardRenderer<unknown>, huge: HugeInput | undefined) {
  const time = fakeTime(vi);
  const memory = memoryChannel();
  const drawn: DrawnPayload[] = [];
  const channel = {
    ...memory,
    renderer: {
      ...memory.renderer,
      render: (view: CardView) => {
        drawn.push({ title: view.title, payload: renderer.render(view) });
        return memory.renderer.render(view);
      },
      renderContinuations: (view: CardView) => {
        for (const part of renderer.renderContinuations?.(view) ?? []) drawn.push({ title: view.title, payload: part });
        return memory.renderer.renderContinuations!(view);
      },
    },
  };
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const big = huge ? cards.open('memory', undefined, { locale: 'en', title: 'Huge' }) : undefined;
  const small = cards.open('memory', undefined, { locale: 'en', title: 'Small' });
  if (huge?.delta !== undefined) big?.push({ type: 'answer.delta', text: huge.delta });
  small.push({ type: 'answer.delta', text: 'All checks passed.' });
  await time.advance(5_000);
  if (huge) big?.push({ type: 'run.completed', answer: huge.answer });
  const completedAt = Date.now();
  small.push({ type: 'run.completed' });
  let deliveredAt = 0;
  void small.finalDelivery.then(() => (deliveredAt = Date.now()));
  await time.advance(30_000);
  const smallFinal: FinalDelivery = await small.finalDelivery;
  const bigFinal: FinalDelivery | undefined = big ? await big.finalDelivery : undefined;
  const shownSmall = smallFinal.message ? memory.messages.get(smallFinal.message.id)?.history.at(-1) : undefined;
  await cards.shutdown();
  return { smallFinal, shownSmall, bigFinal, waitedMs: deliveredAt - completedAt, drawn };
}
