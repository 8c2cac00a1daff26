import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ClickHandler, type ProgressCard } from '@progresscard/core';
import { canUseToolOnCard } from '../src/claude-agent-sdk/index.js';
import { approveOnCard } from '../src/openai-agents/index.js';

/** A card on a memory channel whose callbacks hand the test the click handler. */
function interactiveCard() {
  let onClick: ClickHandler | undefined;
  const channel = Object.assign(memoryChannel(), {
    interaction: {
      start: async (handler: ClickHandler) => {
        onClick = handler;
      },
      stop: async () => undefined,
    },
  });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const card = cards.open('memory', undefined, { locale: 'en' });
  card.start({ title: 'Agent' });
  let n = 0;
  /** Waits for the card's open question and clicks `optionId` on it as `user`. */
  const click = async (optionId: string, user = 'ou_bob') => {
    await vi.waitFor(() => expect(card.view().controls?.pending).toBeDefined());
    const controls = card.view().controls!;
    return onClick!({ cardId: controls.cardId, interactionId: controls.pending!.id, optionId, user: { id: user, name: 'Bob' }, deliveryId: `d${++n}` });
  };
  return { card, click, cards };
}

afterEach(() => vi.useRealTimers());

describe('Claude Agent SDK canUseTool on the card', () => {
  it('asks on the tool line and answers allow with the input, or deny naming who denied', async () => {
    const { card, click, cards } = interactiveCard();
    card.toolStarted('toolu_1', 'Bash', { command: 'rm -rf dist' });
    const canUseTool = canUseToolOnCard(card);
    const allowed = canUseTool('Bash', { command: 'rm -rf dist' }, { signal: new AbortController().signal, toolUseID: 'toolu_1' });
    expect((await click('approve')).outcome).toBe('decided');
    await expect(allowed).resolves.toEqual({ behavior: 'allow', updatedInput: { command: 'rm -rf dist' } });
    const denied = canUseTool('Bash', { command: 'git push --force' }, { signal: new AbortController().signal, toolUseID: 'toolu_2' });
    await vi.waitFor(() => expect(card.view().controls?.pending?.prompt).toBe('Allow Bash: `git push --force`?'));
    await click('deny');
    await expect(denied).resolves.toEqual({ behavior: 'deny', message: 'Bash was not allowed: denied by Bob' });
    await cards.shutdown();
  });

  it('denies an aborted request without asking', async () => {
    const { card, cards } = interactiveCard();
    const aborted = new AbortController();
    aborted.abort();
    await expect(canUseToolOnCard(card)('Write', { file_path: 'a.txt' }, { signal: aborted.signal })).resolves.toMatchObject({ behavior: 'deny' });
    expect(card.view().controls).toBeUndefined();
    await cards.shutdown();
  });
});

describe('OpenAI Agents SDK approvals on the card', () => {
  it('asks for each interruption in turn and approves or rejects it on the run state', async () => {
    const { card, click, cards } = interactiveCard();
    const items = [{ rawItem: { name: 'lookup_order', arguments: '{"orderId":"A17"}', callId: 'call_1' } }, { rawItem: { name: 'refund', arguments: '{"orderId":"A17"}', callId: 'call_2' } }];
    const state = { approved: [] as string[], rejected: [] as string[], approve: (i: (typeof items)[number]) => state.approved.push(i.rawItem.callId), reject: (i: (typeof items)[number]) => state.rejected.push(i.rawItem.callId) };
    const decisions = approveOnCard({ interruptions: items, state }, card as ProgressCard);
    await click('approve');
    await click('deny');
    await expect(decisions).resolves.toMatchObject([{ approved: true }, { approved: false }]);
    expect(state).toMatchObject({ approved: ['call_1'], rejected: ['call_2'] });
    await cards.shutdown();
  });
});
