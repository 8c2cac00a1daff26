import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardState, noProgressSince } from '../../src/index.js';
import { formatFooter } from '../../src/plugin/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const T = Date.UTC(2026, 0, 1, 4, 3, 0);
const plan = (...statuses: ('pending' | 'in_progress' | 'completed')[]) =>
  statuses.map((status, i) => ({ text: `step ${i + 1}`, status }));

describe('plan checklist', () => {
  it('each plan.updated replaces the checklist and counts the completed items', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'plan.updated', items: plan('in_progress', 'pending', 'pending') }, T + 1);
    expect(state.view(T + 2).plan).toMatchObject({ done: 0, total: 3 });
    state.apply({ type: 'plan.updated', items: plan('completed', 'completed', 'in_progress', 'pending') }, T + 3);
    const view = state.view(T + 4);
    expect(view.plan).toMatchObject({ done: 2, total: 4 });
    expect(view.plan!.items.map((item) => item.status)).toEqual(['completed', 'completed', 'in_progress', 'pending']);
    expect(view.tools).toEqual([]);
  });

  it('stays on the final card as it last stood (no invented completion)', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'plan.updated', items: plan('completed', 'in_progress') }, T + 1);
    state.apply({ type: 'run.completed', answer: 'done' }, T + 2);
    expect(state.view(T + 3).plan).toMatchObject({ done: 1, total: 2 });
  });

  it('an empty list clears the plan; blank items are left out', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'plan.updated', items: [{ text: '  ', status: 'pending' }, { text: 'real', status: 'pending' }] }, T + 1);
    expect(state.view(T + 1).plan!.items).toEqual([{ text: 'real', status: 'pending' }]);
    state.apply({ type: 'plan.updated', items: [] }, T + 2);
    expect(state.view(T + 2).plan).toBeUndefined();
  });

  it('refuses an item state outside the contract, naming it', async () => {
    const { cards } = setup();
    const card = cards.open('memory');
    const result = card.push({ type: 'plan.updated', items: [{ text: 'a', status: 'skipped' }] });
    expect(result).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(!result.accepted && result.reason === 'invalid' && result.error.message).toMatch(/plan\.updated\.items\.0\.status = "skipped"/);
  });
});

describe('changed files', () => {
  it('adds up the changes of one path and keeps the first-change order', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'file.changed', path: 'src/a.ts', added: 10, removed: 2 }, T + 1);
    state.apply({ type: 'file.changed', path: 'README.md', kind: 'added', added: 40 }, T + 2);
    state.apply({ type: 'file.changed', path: 'src/a.ts', added: 2, removed: 1 }, T + 3);
    state.apply({ type: 'file.changed', path: 'README.md', added: 1, removed: 1 }, T + 4);
    expect(state.view(T + 5).changedFiles).toEqual([
      { path: 'src/a.ts', kind: 'modified', added: 12, removed: 3 },
      { path: 'README.md', kind: 'added', added: 41, removed: 1 },
    ]);
  });

  it('keeps counts unknown when no change reported them', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'file.changed', path: '/w/main.v', kind: 'added' }, T + 1);
    expect(state.view(T + 2).changedFiles).toEqual([{ path: '/w/main.v', kind: 'added', added: undefined, removed: undefined }]);
  });
});

describe('liveness note', () => {
  it('is a pure function of the time since the latest event', () => {
    expect(noProgressSince(T, T + 59_999, 60_000)).toBeUndefined();
    expect(noProgressSince(T, T + 60_000, 60_000)).toBe(T);
    expect(noProgressSince(T, T + 600_000, 0)).toBeUndefined();
  });

  it('shows on a running card after the quiet period, goes with the next event, never on a waiting or final card', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'run.started' }, T);
    state.apply({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' }, T + 1000);
    expect(state.view(T + 30_000).noProgressSince).toBeUndefined();
    expect(state.view(T + 61_000).noProgressSince).toBe(T + 1000);
    state.apply({ type: 'tool.finished', callId: 'c1' }, T + 70_000);
    expect(state.view(T + 70_001).noProgressSince).toBeUndefined();
    state.apply({ type: 'interaction.requested', prompt: 'Approve?' }, T + 80_000);
    expect(state.view(T + 500_000).noProgressSince).toBeUndefined();
    state.apply({ type: 'run.completed' }, T + 600_000);
    expect(state.view(T + 900_000).noProgressSince).toBeUndefined();
  });

  it('counts from when an event arrived, not from the time it carries (a replayed trace)', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'tool.started', callId: 'c1', name: 'shell', at: T - 3_600_000 }, T);
    expect(state.view(T + 1000).noProgressSince).toBeUndefined();
  });

  it('a card with nothing running is redrawn with the note once the quiet period passes', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { quietPeriodMs: 30_000 });
    card.start({ title: 'Long think' });
    card.thinking('hmm');
    await settle(10_000);
    expect(channel.messages.get('m1')!.history.at(-1)!.note).toBeUndefined();
    await settle(25_000);
    const shown = channel.messages.get('m1')!.history.at(-1)!;
    // The latest event came at 1_700_000_000_000 (22:13:20 UTC).
    expect(shown.note).toBe('⏳ 22:13 后暂无新进展');
    card.answer('back');
    await settle(5_000);
    expect(channel.messages.get('m1')!.history.at(-1)!.note).toBeUndefined();
  });
});

describe('instant acknowledgement', () => {
  it('a card is posted within a second of run.started even under a long debounce', async () => {
    const { channel, cards, t0 } = setup({ overrides: { debounceMs: 10_000 } });
    const card = cards.open('memory');
    card.start({ title: 'Fix the build' });
    card.thinking('reading the logs');
    await settle(1000);
    const first = channel.calls.find((call) => call.op === 'send');
    expect(first).toBeDefined();
    expect(first!.at - t0).toBeLessThanOrEqual(1000);
    expect(first!.payload.title).toBe('Fix the build');
  });
});

describe('cost in the footer', () => {
  it('shows the source-reported total (Claude total_cost_usd), the latest value winning', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'usage', inputTokens: 1000, outputTokens: 100, totalCostUsd: 0.5 }, T + 1);
    state.apply({ type: 'usage', totalCostUsd: 1.2734 }, T + 2);
    const footer = state.view(T + 3).footer;
    expect(footer.costUsd).toBe(1.2734);
    expect(formatFooter(footer, { style: 'compact', locale: 'en', timeZone: 'UTC' })).toContain('$1.27');
    expect(formatFooter(footer, { style: 'debug', locale: 'en', timeZone: 'UTC' })).toContain('$1.2734');
  });

  it('prices SDK usage with the product price table per model', () => {
    const prices = { 'model-a': { inputUsdPerMillion: 3, outputUsdPerMillion: 15 } };
    const state = new CardState({ startedAt: T, prices });
    state.apply({ type: 'usage', model: 'model-a', inputTokens: 100_000, outputTokens: 10_000 }, T + 1);
    expect(state.view(T + 2).footer.costUsd).toBeCloseTo(0.45, 10);
  });

  it('shows no cost once a call of an unpriced model comes (never a too-low figure)', () => {
    const prices = { 'model-a': { inputUsdPerMillion: 3, outputUsdPerMillion: 15 } };
    const state = new CardState({ startedAt: T, prices });
    state.apply({ type: 'usage', model: 'model-a', inputTokens: 100_000 }, T + 1);
    state.apply({ type: 'usage', model: 'model-b', inputTokens: 100_000 }, T + 2);
    expect(state.view(T + 3).footer.costUsd).toBeUndefined();
  });

  it('a bad price is refused when the card opens, naming model and field', () => {
    const { cards } = setup();
    expect(() => cards.open('memory', undefined, { prices: { m: { inputUsdPerMillion: -1, outputUsdPerMillion: 1 } } })).toThrow(/prices\["m"\]\.inputUsdPerMillion = -1/);
  });
});
