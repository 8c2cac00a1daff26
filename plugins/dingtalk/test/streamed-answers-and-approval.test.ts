import { createProgressCards, silentLogger, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { faultCase, loadFaultCases } from '@progresscard/core/testing';
import type { DingTalkEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';
import { sleep } from './replay.js';

/** Field cases of round 2 (F12, F14, F15, F16), copied from the shared case list; replayed 10× faster than written. */
const cases = loadFaultCases(new URL('./fixtures/faults-2.jsonl', import.meta.url));
const SCALE = 10;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

/** Starts the emulator and a composition whose clock runs {@link SCALE} times faster than wall time. */
async function start(): Promise<{ card: ProgressCard; play: (id: string) => Promise<void>; until: (atMs: number) => Promise<void> }> {
  const s = await setup({ tickMs: Math.round(3000 / SCALE), debounceMs: Math.round(2500 / SCALE) });
  emulator = s.emulator;
  const t0 = Date.now();
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger, env: {}, clock: { now: () => t0 + (Date.now() - t0) * SCALE } });
  const card = cards.open('dingtalk');
  const until = async (atMs: number) => sleep(Math.max(0, t0 + atMs / SCALE - Date.now()));
  const play = async (id: string) => {
    for (const event of faultCase(cases, id).events) {
      await until(event.at);
      card.push({ ...event, at: t0 + event.at });
    }
  };
  return { card, play, until };
}

/** Every accepted card content (msgContent) and title, in order. */
function accepted(): { title: string; content: string; flowStatus: string }[] {
  const dt = emulator!.cards()[0]!;
  return dt.history
    .filter((h) => h.outcome === 'accepted' && h.card)
    .map((h) => ({ title: h.card!.cardData.msgTitle ?? '', content: h.card!.cardData.msgContent ?? '', flowStatus: h.card!.cardData.flowStatus ?? '' }));
}

describe('field cases, round 2 (DingTalk, through the emulator)', () => {
  it('F12 emoji split into lone UTF-16 surrogates: no card carries half an emoji, the split delta arrives whole', async () => {
    const { card, play } = await start();
    await play('F12');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const sent = accepted();
    for (const c of sent) {
      expect(c.title).not.toMatch(LONE_SURROGATE);
      expect(c.content).not.toMatch(LONE_SURROGATE);
    }
    expect(sent.at(-1)!.content).toContain('Deploy finished 🚀 all green');
  });

  it('F14 answer text before and after a tool call: the two segments stay apart', async () => {
    const { card, play } = await start();
    await play('F14');
    await card.finalDelivery;
    const last = accepted().at(-1)!.content;
    expect(last).not.toContain('first.The');
    expect(last).toMatch(/first\.(\s|<br>)+The timeout is 30 s\./);
  });

  it('F15 approved tool ran: the card stops waiting for confirmation and ends completed', async () => {
    const { card, play, until } = await start();
    const playing = play('F15');
    await until(12_000); // the tool that asked finished at 6000 ms; the model thinks until 15000 ms
    await cards!.idle();
    expect(accepted().at(-1)!.content).not.toContain('等待');
    await playing;
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });

  it('F16 stray backtick and bare < in streamed markdown: no backtick left to open a code span in any card, the code text and the last paragraph visible', async () => {
    const { card, play } = await start();
    await play('F16');
    await card.finalDelivery;
    const sent = accepted();
    expect(sent.length).toBeGreaterThanOrEqual(2); // mid-stream and final
    for (const { content } of sent) {
      for (const line of content.split('\n')) expect((line.match(/`/g) ?? []).length % 2, line).toBe(0);
      expect(content).not.toMatch(/<(?!br>|\/?font)/);
    }
    const last = sent.at(-1)!.content;
    expect(last).toContain('The last paragraph must stay visible.');
    expect(last).toContain('x &lt; 10');
    // Inline code is not in DingTalk's documented markdown subset: the span shows as its text.
    expect(last).toContain('run npm ci (not npm install)');
  });
});
