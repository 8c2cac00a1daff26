import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { faultCase, loadFaultCases, recordingLogger } from '@progresscard/core/testing';
import type { DingTalkEmulator, DingTalkEmulatorOptions } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { DingTalkConfigInput } from '../src/index.js';
import { setup } from './helpers.js';
import { sleep } from './replay.js';

/**
 * Case F24 (copied from the team's shared fault set `faults-4`, its line keeps the reports it comes
 * from): reported on Feishu, the same shape on DingTalk without `Card.Streaming.Write`.
 */
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));
const ANSWER = 'The root volume is 91% full; the logs folder holds 40 GB.';
const CARD_DATA_TEMPLATE = 'card-data-template.schema';

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

/** Runs F24's events on `count` cards at once and returns their finals and the log. */
async function run(count: number, config: Partial<DingTalkConfigInput>, options: DingTalkEmulatorOptions) {
  const s = await setup(config, options);
  emulator = s.emulator;
  const logger = recordingLogger({ levels: ['warn', 'error'] });
  cards = createProgressCards({ channels: [s.plugin], logger, env: {}, retry: { finalRetryDelaysMs: [200, 200, 200], updateRetryDelaysMs: [200, 200, 200] } });
  const opened: ProgressCard[] = Array.from({ length: count }, () => cards!.open('dingtalk'));
  const t0 = Date.now();
  for (const event of faultCase(cases, 'F24').events) {
    await sleep(Math.max(0, t0 + event.at / 4 - Date.now()));
    for (const card of opened) card.push({ ...event, at: t0 + event.at });
  }
  const finals = await Promise.all(opened.map((card) => card.finalDelivery));
  await cards.idle();
  return { finals, logger };
}

describe('DingTalk without a permission scope', () => {
  it('F24 without Card.Streaming.Write: every card shows, completed, through the card-data template, with one warning naming the scope', async () => {
    const { finals, logger } = await run(3, { cardDataTemplateId: CARD_DATA_TEMPLATE }, { missingScopes: ['Card.Streaming.Write'], templateModels: { [CARD_DATA_TEMPLATE]: { streamingSwitch: false } } });

    for (const final of finals) expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const shown = emulator!.cards().filter((card) => card.display.content !== '');
    expect(shown).toHaveLength(3);
    for (const card of shown) {
      expect(card.cardTemplateId).toBe(CARD_DATA_TEMPLATE);
      expect(card.display).toMatchObject({ state: 'finished' });
      expect(card.display.content).toContain(ANSWER);
    }
    const refusedStreams = emulator!.calls({ route: 'card.streaming' }).length;
    // Only cards created before the first refusal tried to stream; the fresh cards did not.
    expect(refusedStreams).toBeLessThanOrEqual(3);
    const problems = logger.lines.filter((line) => /^(warn|error)/.test(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^warn dingtalk: the streaming API was refused: the app lacks permission scope Card\.Streaming\.Write/);
  });

  it('without Card.Streaming.Write and no card-data template: the content goes as card data to the same cards, one warning', async () => {
    const { finals, logger } = await run(2, {}, { missingScopes: ['Card.Streaming.Write'], template: { streamingSwitch: false } });

    for (const final of finals) expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const all = emulator!.cards();
    expect(all).toHaveLength(2);
    for (const card of all) expect(card.display.content).toContain(ANSWER);
    expect(logger.lines.filter((line) => /^(warn|error)/.test(line))).toHaveLength(1);
  });

  it('without Card.Instance.Write: one error for the channel naming the scope, each final ends at once', async () => {
    const { finals, logger } = await run(3, {}, { missingScopes: ['Card.Instance.Write'] });

    for (const final of finals) expect(final).toMatchObject({ ok: false, error: expect.stringMatching(/^dingtalk lacks permission scope Card\.Instance\.Write/) });
    expect(emulator!.calls({ route: 'card.createAndDeliver' }).length).toBeLessThanOrEqual(3);
    const problems = logger.lines.filter((line) => /^(warn|error)/.test(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/Card\.Instance\.Write: send stops for every card/);
  });
});
