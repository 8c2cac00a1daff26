import type { CardView } from '@progresscard/core/plugin';
import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createSlackRenderer } from '../src/render/renderer.js';

const base = viewAfterEvents([{ type: 'run.started', title: 'Deploy', at: 0 }], { locale: 'en' });
const waiting = (controls: Partial<NonNullable<CardView['controls']>> = {}): CardView => ({
  ...base,
  status: 'waiting',
  controls: {
    cardId: 'card-1-t0',
    pending: { id: 'ia_1', prompt: 'Deploy?', options: [{ id: 'approve', label: 'Approve', style: 'primary', approves: true }, { id: 'deny', label: 'x'.repeat(120), style: 'danger' }], freeText: true, code: '3F2A' },
    stop: true,
    ...controls,
  },
});
type Block = { type: string; block_id?: string; elements?: { type: string; action_id?: string; text: { text: string } | string; value?: string; style?: string }[] };
const blocks = (view: CardView, controls: 'buttons' | 'text') => (createSlackRenderer({ controls }).render(view).blocks ?? []) as Block[];

describe('Slack controls', () => {
  it('buttons: one actions block whose values name card, interaction and option; the answer input names them in its block_id; Stop last', () => {
    const rendered = blocks(waiting(), 'buttons');
    const actions = rendered.find((b) => b.type === 'actions')!;
    expect(actions.elements!.map((e) => [e.action_id, JSON.parse(e.value!), e.style])).toEqual([
      ['pc_opt_0', { pc: '1', card: 'card-1-t0', interaction: 'ia_1', option: 'approve' }, 'primary'],
      ['pc_opt_1', { pc: '1', card: 'card-1-t0', interaction: 'ia_1', option: 'deny' }, 'danger'],
      ['pc_stop', { pc: '1', card: 'card-1-t0', interaction: 'stop', option: 'stop' }, 'danger'],
    ]);
    // Button texts stay within Block Kit's 75 characters.
    expect((actions.elements![1]!.text as { text: string }).text.length).toBeLessThanOrEqual(75);
    expect(rendered.find((b) => b.type === 'input')?.block_id).toBe('pc_answer|card-1-t0|ia_1');
  });

  it('text style, or callbacks that could not start: the reply to type, no buttons, no input', () => {
    for (const view of [blocks(waiting(), 'text'), blocks(waiting({ replyByText: true }), 'buttons')]) {
      expect(view.some((b) => b.type === 'actions' || b.type === 'input')).toBe(false);
      expect(view.find((b) => b.block_id === 'pc_reply')?.elements?.[0]?.text).toMatch(/^Reply: `\/approve 3F2A` \(Approve\) \/ `\/deny 3F2A` \(x+…?\) \/ `\/answer 3F2A …`$/);
    }
  });

  it('a decided question: who decided, and the buttons are gone', () => {
    const decided: CardView = { ...waiting({ pending: undefined, stop: false }), status: 'running', decisions: [{ id: 'ia_1', prompt: 'Deploy?', answer: 'Approve', by: 'Bob', tone: 'positive', at: Date.UTC(2026, 0, 1, 8, 1) }] };
    const rendered = blocks(decided, 'buttons');
    expect(rendered.some((b) => b.type === 'actions' || b.type === 'input')).toBe(false);
    expect(rendered.find((b) => b.block_id === 'pc_decided')).toMatchObject({ text: { text: ':white_check_mark: Approve · Bob' } });
  });
});
