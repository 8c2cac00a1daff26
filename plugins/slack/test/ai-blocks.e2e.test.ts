import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Loose = { type: string; block_id?: string; task_id?: string; status?: string; tasks?: { status: string }[] };
const blocksOf = (request: unknown) => {
  const raw = (request as { blocks?: unknown }).blocks;
  return (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as Loose[];
};

describe('Slack AI blocks outside threads (chat.postMessage + chat.update on the emulator, script time ×10)', { timeout: 60_000 }, () => {
  it('tool calls show as task cards until a plan arrives, then as a plan block; every update accepted, the plan block_id new whenever it changed', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack');
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Release' },
      { at: 100, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
      { at: 12_000, type: 'tool.finished', callId: 'c1', summary: '212 passed' },
      { at: 20_000, type: 'plan.updated', items: [{ text: 'Test', status: 'completed' }, { text: 'Publish', status: 'in_progress' }] },
      { at: 26_000, type: 'plan.updated', items: [{ text: 'Test', status: 'completed' }, { text: 'Publish', status: 'completed' }] },
      { at: 30_000, type: 'answer.delta', text: 'Published 2.4.0.' },
      { at: 30_500, type: 'run.completed' },
    ]);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls().filter((call) => call.outcome === 'rejected')).toEqual([]);
    const sent = h.emulator.calls().filter((call) => call.route === 'chat.postMessage' || call.route === 'chat.update').map((call) => blocksOf(call.request));
    // Before the plan: the tool call as a task card (in progress, then complete); never a plan next to a task card.
    const cardStates = sent.flatMap((blocks) => blocks.filter((b) => b.type === 'task_card').map((b) => b.status));
    expect(cardStates).toContain('in_progress');
    expect(cardStates).toContain('complete');
    expect(sent.every((blocks) => !(blocks.some((b) => b.type === 'plan') && blocks.some((b) => b.type === 'task_card')))).toBe(true);
    // The final: a plan block, all complete.
    const final = h.emulator.messages()[0]!.blocks as Loose[];
    expect(final.find((b) => b.type === 'plan')!.tasks!.map((t) => t.status)).toEqual(['complete', 'complete']);
    // Fresh block_ids: each distinct plan content came with its own id.
    const plans = sent.map((blocks) => blocks.find((b) => b.type === 'plan')).filter((b): b is Loose => b !== undefined);
    const ids = new Map<string, string>();
    for (const plan of plans) ids.set(JSON.stringify(plan.tasks), plan.block_id!);
    expect(new Set(ids.values()).size).toBe(ids.size);
  });
});
