/**
 * Bounded render cost for markup-heavy answers (issue 30 item 4): a 10 MB answer made of thousands
 * of small markdown tables, or of code blocks, is cut to what a card and its parts hold (in
 * characters and in lines: the table and markup passes cost per line), with its first table still
 * drawn as a table and a notice counting what was left out; and such a card does not keep another
 * card's final on the same channel from being delivered (fake time). Render time itself is measured
 * by `npm run bench:render`, not here.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardState, createProgressCards, memoryChannel, silentLogger, type CardRenderer, type CardView } from '@progresscard/core';
import { boundAnswer, answerCharsNotHeld } from '@progresscard/core/plugin';
import { fakeTime } from '@progresscard/core/testing';
import { DEFAULT_DISCORD_APP, DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { discord } from '@progresscard/plugin-discord';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';
import { teams } from '@progresscard/plugin-teams';

const TEN_MB = 10_000_000;
const AT = 1_700_000_000_000;
const TABLE = '| Tool | Runs in |\n|---|---|\n| Vitest | Node |\n\n';
const CODE = '```ts\nconst x = 1; // <b>&amp;</b>\n```\n';
/** A count of several million written out, with or without thousands separators (the notices count what was left out or the whole). */
const MILLIONS = /\b(9,?[6-9]\d\d|10,?000),?\d\d\d\b/;
const made = new Map<string, string>();
/** 10 MB of `unit` repeated, made once per unit. */
const huge = (unit: string): string => {
  const known = made.get(unit);
  if (known !== undefined) return known;
  const text = unit.repeat(Math.ceil(TEN_MB / unit.length)).slice(0, TEN_MB);
  made.set(unit, text);
  return text;
};

const RENDERERS: Record<string, () => CardRenderer<unknown>> = {
  feishu: () => feishu({ appId: 'cli_tables', appSecret: 'tables', receiveId: 'oc_tables', timeZone: 'UTC' }).renderer as CardRenderer<unknown>,
  dingtalk: () => dingtalk({ appKey: 'dingtables', appSecret: 'tables', cardTemplateId: 'tables.schema', target: { type: 'group', openConversationId: 'cidTables==' }, timeZone: 'UTC' }).renderer as CardRenderer<unknown>,
  slack: () => slack({ botToken: 'xoxb-tables', channel: 'C0TABLES' }).renderer as CardRenderer<unknown>,
  telegram: () => telegram({ botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: DEFAULT_TELEGRAM_BOT.privateChat }).renderer as CardRenderer<unknown>,
  discord: () => discord({ botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel }).renderer as CardRenderer<unknown>,
  wecom: () => wecom({ token: 'progresscardTables', encodingAESKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', botId: 'aib_tables' }, { env: {} }).renderer as CardRenderer<unknown>,
  teams: () =>
    teams({ appId: 'teams-tables', appPassword: 'tables', serviceUrl: 'https://smba.example.test/teams/', conversationId: '19:tables@thread.v2' }, { env: {} }).renderer as CardRenderer<unknown>,
};

function finalCard(answer: string): CardView {
  const state = new CardState({ startedAt: AT, locale: 'en' });
  state.apply({ type: 'run.started', title: 'Huge tables' }, AT);
  state.apply({ type: 'run.completed', answer }, AT);
  return state.view(AT);
}

/** The table's head as the user sees it: a header row of a markdown table, an aligned block, a Teams `Table` element or a Slack `table` block. */
function showsTableHead(payload: unknown): boolean {
  const json = JSON.stringify(payload);
  if (/Tool(\s+|\s*\|\s*)Runs in/.test(json)) return true;
  if (/"type":"TableRow","cells":\[\{"type":"TableCell","items":\[\{"type":"TextBlock","text":"Tool"[^\]]*\]\},\{"type":"TableCell","items":\[\{"type":"TextBlock","text":"Runs in"/.test(json)) return true;
  const blocks = (payload as { blocks?: { type: string; rows?: unknown[][] }[] }).blocks ?? [];
  const table = blocks.find((block) => block.type === 'table');
  return table !== undefined && JSON.stringify(table.rows?.[0]).includes('"Tool"') && JSON.stringify(table.rows?.[0]).includes('"Runs in"');
}

describe('a 10 MB answer of tables or code blocks on every channel', () => {
  const tables = finalCard(huge(TABLE));
  const code = finalCard(huge(CODE));

  for (const [channel, make] of Object.entries(RENDERERS)) {
    it(`${channel}: the first table is drawn with its head, the messages stay small, and a notice counts what was left out`, () => {
      const renderer = make();
      const payloads = [renderer.render(tables), ...(renderer.renderContinuations?.(tables) ?? [])];
      // The answer's first message (the card, or on Telegram the first part after "the answer follows below").
      expect(payloads.find((payload) => JSON.stringify(payload).includes('Vitest'))).toSatisfy(showsTableHead);
      expect(Math.max(...payloads.map((payload) => JSON.stringify(payload).length))).toBeLessThan(100_000);
      // A notice on the card or its last part counts the millions of characters (bytes on WeCom) not shown.
      expect(JSON.stringify(payloads)).toMatch(MILLIONS);
    }, 60_000);

    it(`${channel}: a 10 MB answer of code blocks is cut the same way`, () => {
      const renderer = make();
      const payloads = [renderer.render(code), ...(renderer.renderContinuations?.(code) ?? [])];
      expect(JSON.stringify(payloads.slice(0, 2))).toContain('const x = 1;');
      expect(Math.max(...payloads.map((payload) => JSON.stringify(payload).length))).toBeLessThan(100_000);
      expect(JSON.stringify(payloads)).toMatch(MILLIONS);
    }, 60_000);
  }
});

describe('boundAnswer with a line bound', () => {
  const view = finalCard('short');

  it('keeps at most that many lines, counting the rest as not held', () => {
    const answer = 'row\n'.repeat(10_000);
    const bounded = boundAnswer({ ...view, answer }, 1_000_000, { maxLines: 100 });
    expect(bounded.answer).toBe('row\n'.repeat(99) + 'row');
    expect(answerCharsNotHeld(bounded)).toBe(answer.length - bounded.answer.length);
  });

  it('cuts at the character bound when it comes first, and leaves a short answer as it is', () => {
    // 10 characters and the 2 000 of margin hold 19 lines of 101.
    const answer = `${'x'.repeat(100)}\n`.repeat(100);
    expect(boundAnswer({ ...view, answer }, 10, { maxLines: 1_000 }).answer).toBe(answer.slice(0, 19 * 101 - 1));
    expect(boundAnswer({ ...view, answer: 'a\nb\nc' }, 10, { maxLines: 3 }).answer).toBe('a\nb\nc');
    expect(boundAnswer({ ...view, answer: 'a\nb\nc' }, 10, { maxLines: 2 }).answer).toBe('a\nb');
  });

  it('closes a code fence the line bound cuts open', () => {
    const answer = `intro\n\`\`\`ts\n${'x = 1\n'.repeat(100)}`;
    expect(boundAnswer({ ...view, answer }, 1_000_000, { maxLines: 10 }).answer).toMatch(/^intro\n```ts\n(x = 1\n){8}```$/);
  });
});

/**
 * The table-heavy card next to another on Slack's renderer (drawn for every view the core asks for;
 * the in-memory transport records the core's view): the other card's final is delivered within a
 * budget slot of the (fake) time it is delivered alone.
 */
describe('a 10 MB table answer next to another card on Slack', () => {
  beforeEach(() => vi.useFakeTimers({ now: AT }));
  afterEach(() => vi.useRealTimers());

  async function run(withHuge: boolean) {
    const time = fakeTime(vi);
    const memory = memoryChannel();
    const real = RENDERERS.slack!();
    const drawn: unknown[] = [];
    const channel = {
      ...memory,
      renderer: {
        ...memory.renderer,
        render: (view: CardView) => {
          if (view.title === 'Huge') drawn.push(real.render(view));
          return memory.renderer.render(view);
        },
        renderContinuations: (view: CardView) => {
          if (view.title === 'Huge') drawn.push(...(real.renderContinuations?.(view) ?? []));
          return memory.renderer.renderContinuations!(view);
        },
      },
    };
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const big = withHuge ? cards.open('memory', undefined, { locale: 'en', title: 'Huge' }) : undefined;
    const small = cards.open('memory', undefined, { locale: 'en', title: 'Small' });
    small.push({ type: 'answer.delta', text: 'All checks passed.' });
    await time.advance(5_000);
    big?.push({ type: 'run.completed', answer: huge(TABLE) });
    const completedAt = Date.now();
    small.push({ type: 'run.completed' });
    let deliveredAt = 0;
    void small.finalDelivery.then(() => (deliveredAt = Date.now()));
    await time.advance(30_000);
    const smallFinal = await small.finalDelivery;
    const bigFinal = big ? await big.finalDelivery : undefined;
    const shownSmall = smallFinal.message ? memory.messages.get(smallFinal.message.id)?.history.at(-1) : undefined;
    await cards.shutdown();
    return { smallFinal, shownSmall, bigFinal, waitedMs: deliveredAt - completedAt, drawn };
  }

  it("the other card's final is delivered, and the huge card's drawn message shows the table head and the cut notice", async () => {
    const alone = await run(false);
    const beside = await run(true);
    expect(beside.smallFinal.ok).toBe(true);
    expect(beside.shownSmall).toMatchObject({ status: 'completed', answer: 'All checks passed.' });
    expect(beside.bigFinal?.ok).toBe(true);
    // At most a slot or two of the channel's budget later: the huge card's own final may go first.
    expect(beside.waitedMs).toBeLessThanOrEqual(alone.waitedMs + 1_000);
    expect(beside.drawn.some(showsTableHead)).toBe(true);
    expect(JSON.stringify(beside.drawn)).toMatch(/the last 9,[6-9]\d\d,\d\d\d characters were left out/);
  }, 60_000);
});
