import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardState, silentLogger } from '../../src/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const T = 1_000_000;

describe('final answer rules (seed 004)', () => {
  it('a non-empty run.completed.answer wins over the deltas', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'answer.delta', text: 'draft ' }, T + 1);
    state.apply({ type: 'run.completed', answer: 'Final.' }, T + 2);
    expect(state.view(T + 3).answer).toBe('Final.');
  });

  it('an empty or blank answer falls back to the accumulated deltas', () => {
    for (const answer of [undefined, '', '  ']) {
      const state = new CardState({ startedAt: T });
      state.apply({ type: 'answer.delta', text: 'All tests pass. ' }, T + 1);
      state.apply({ type: 'answer.delta', text: 'Done.' }, T + 2);
      state.apply({ type: 'run.completed', answer }, T + 3);
      expect(state.view(T + 4).answer).toBe('All tests pass. Done.');
    }
  });

  it('a run with only a completed answer still gets a full final card', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { title: 'Quick question' });
    card.complete('42');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const last = channel.messages.get('m1')!.history.at(-1)!;
    expect(last).toMatchObject({ status: 'completed', answer: '42', title: 'Quick question' });
  });

  it('terminal cards freeze the elapsed time at the terminal event', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'run.failed', error: 'boom', at: T + 5000 }, T + 5000);
    expect(state.view(T + 60_000).elapsedMs).toBe(5000);
    expect(state.view(T + 60_000).footer.durationMs).toBe(5000);
  });

  it('ignores events after the terminal event, warning once', () => {
    const warnings: string[] = [];
    const { cards } = setup({}, {}, { ...silentLogger, warn: (m: string) => void warnings.push(m) });
    const card = cards.open('memory');
    card.complete('done');
    expect(card.answer('late')).toEqual({ accepted: false, reason: 'after-terminal' });
    expect(card.toolStarted('x', 'shell')).toEqual({ accepted: false, reason: 'after-terminal' });
    expect(card.view().answer).toBe('done');
    expect(card.view().tools).toHaveLength(0);
    expect(warnings.filter((w) => w.includes('after the run ended'))).toHaveLength(1);
  });
});

describe('statuses', () => {
  it('waiting while an interaction is requested, running again on activity', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'interaction.requested', prompt: 'Allow rm -rf build?' }, T + 1);
    expect(state.view(T + 2)).toMatchObject({ status: 'waiting', waitingFor: 'Allow rm -rf build?' });
    state.apply({ type: 'tool.started', callId: 'a', name: 'shell' }, T + 3);
    expect(state.view(T + 4)).toMatchObject({ status: 'running', waitingFor: undefined });
  });

  it('running tools stop their timers when the run fails', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'tool.started', callId: 'a', name: 'shell', args: '{"command":"make"}' }, T);
    state.apply({ type: 'run.cancelled', reason: 'user' }, T + 5000);
    const view = state.view(T + 9000);
    expect(view.tools[0]!.state).toBe('interrupted');
    expect(view.tools[0]!.text).toBe('shell: `make`（已中断）');
    expect(view.hasRunningTools).toBe(false);
  });

  it('usage adds input/output tokens and keeps the latest context', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'usage', inputTokens: 1000, outputTokens: 100, contextTokens: 50_000, contextWindow: 200_000, model: 'm1' }, T);
    state.apply({ type: 'usage', inputTokens: 2000, outputTokens: 50, contextTokens: 68_000 }, T);
    expect(state.view(T).footer).toMatchObject({ inputTokens: 3000, outputTokens: 150, contextPercent: 34, model: 'm1', toolCount: 0 });
  });
});

describe('verbose output buffering (seed 003)', () => {
  it('releases after 50 pending segments', () => {
    const state = new CardState({ startedAt: T });
    for (let i = 0; i < 49; i++) expect(state.apply({ type: 'answer.delta', text: 'x' }, T).change).toBe('none');
    expect(state.view(T).answer).toBe('');
    expect(state.apply({ type: 'answer.delta', text: 'x' }, T)).toMatchObject({ change: 'structural', released: true });
    expect(state.view(T).answer).toBe('x'.repeat(50));
  });

  it('releases at 8000 pending characters', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'thinking.delta', text: 'a'.repeat(7999) }, T);
    expect(state.view(T).thinking).toBe('');
    state.apply({ type: 'thinking.delta', text: 'b' }, T);
    expect(state.view(T).thinking).toHaveLength(8000);
  });

  // Was "releases when the debounce window passed since the oldest pending text" for every card; since
  // text follows the budget (issue 13) the debounce applies in card-per-turn mode and under pressure.
  it('in card-per-turn mode, releases when the debounce window passed since the oldest pending text', async () => {
    const { channel, cards } = setup({ overrides: { debounceMs: 2500 } });
    const card = cards.open('memory', undefined, { cardPer: 'turn' });
    card.answer('Hello');
    await settle(1000);
    card.answer(' world');
    await settle(1400);
    expect(card.view().answer).toBe('');
    await settle(100);
    expect(card.view().answer).toBe('Hello world');
    await settle(300);
    expect(channel.messages.get('m1')!.history.at(-1)!.answer).toBe('Hello world');
  });

  it('while the channel has room, answer text reaches the chat within the per-card interval, not the debounce', async () => {
    const { channel, cards } = setup({ overrides: { debounceMs: 2500, perCardIntervalMs: 250 } });
    const card = cards.open('memory');
    card.answer('Hello');
    expect(card.view().answer).toBe('Hello');
    await settle(50);
    expect(channel.messages.get('m1')!.history.at(-1)!.answer).toBe('Hello');
    card.answer(' world');
    await settle(100);
    expect(channel.messages.get('m1')!.history.at(-1)!.answer).toBe('Hello');
    await settle(200);
    expect(channel.messages.get('m1')!.history.at(-1)!.answer).toBe('Hello world');
  });

  it('under pressure (more cards waiting than the budget sends in one per-card interval), text is buffered', async () => {
    const { cards } = setup({ overrides: { debounceMs: 2500, budget: [{ limit: 1, intervalMs: 5000 }] } });
    for (let i = 0; i < 4; i++) cards.open('memory').start({ title: `busy ${i}` });
    const card = cards.open('memory');
    card.answer('Hello');
    expect(card.view().answer).toBe('');
    await settle(2500);
    expect(card.view().answer).toBe('Hello');
  });

  it('terminal events release everything at once', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'answer.delta', text: 'part' }, T);
    state.apply({ type: 'run.completed' }, T + 1);
    expect(state.view(T + 1).answer).toBe('part');
  });
});

describe('footer clock time', () => {
  it('shows when the run ended on a final card, however late the final is rendered', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'run.started', at: T }, T);
    state.apply({ type: 'run.completed', at: T + 60_000 }, T + 60_000);
    expect(state.view(T + 600_000).footer.sentAt).toBe(T + 60_000);
  });

  it('is never before the latest event (a replay whose clock lags the trace stamps)', () => {
    const state = new CardState({ startedAt: T });
    state.apply({ type: 'run.started', at: T }, T);
    state.apply({ type: 'tool.started', callId: 'c1', name: 'shell', at: T + 3_600_000 }, T + 1000);
    expect(state.view(T + 2000).footer.sentAt).toBe(T + 3_600_000);
    expect(state.view(T + 7_200_000).footer.sentAt).toBe(T + 7_200_000);
  });

  it('keeps sequential cards in order: a later run never shows an earlier time than an earlier run', () => {
    const first = new CardState({ startedAt: T });
    first.apply({ type: 'run.started', at: T }, T);
    first.apply({ type: 'run.completed', at: T + 10_000 }, T + 10_000);
    const second = new CardState({ startedAt: T + 20_000 });
    second.apply({ type: 'run.started', at: T + 20_000 }, T + 20_000);
    second.apply({ type: 'run.completed', at: T + 30_000 }, T + 30_000);
    // The first card's final is retried and rendered after the second one's.
    const secondFooter = second.view(T + 30_000).footer.sentAt;
    const firstFooter = first.view(T + 90_000).footer.sentAt;
    expect(firstFooter).toBeLessThan(secondFooter);
  });
});
