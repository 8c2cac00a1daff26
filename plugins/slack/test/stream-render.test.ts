import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createSlackRenderer } from '../src/render/renderer.js';
import { streamChunks, streamStopBlocks } from '../src/render/stream-chunks.js';

const events = [
  { type: 'run.started', title: 'Deploy', at: 0 },
  { type: 'plan.updated', items: [{ text: 'Build', status: 'completed' }, { text: 'Ship', status: 'in_progress' }], at: 10 },
  { type: 'answer.delta', text: 'Building.', at: 20 },
];
const idOf = (blocks: readonly object[] | undefined, name: string) => (blocks as readonly { block_id?: string }[] | undefined)?.find((b) => b.block_id?.startsWith(`${name}.`))?.block_id;

describe('Slack render for updates and streams', () => {
  it('a block whose content changed gets a new block_id; an unchanged one keeps it (equal views, equal payloads)', () => {
    const renderer = createSlackRenderer();
    const before = renderer.render(viewAfterEvents(events, { locale: 'en' })).blocks;
    const again = renderer.render(viewAfterEvents(events, { locale: 'en' })).blocks;
    const after = renderer.render(viewAfterEvents([...events, { type: 'answer.delta', text: ' Shipping.', at: 30 }], { locale: 'en' })).blocks;
    expect(again).toEqual(before);
    expect(idOf(after, 'answer_1')).not.toBe(idOf(before, 'answer_1'));
    expect(idOf(after, 'plan')).toBe(idOf(before, 'plan'));
  });

  it('stream chunks: the plan as plan_update and its items as tasks (never `completed`), tool calls as tasks, then the text', () => {
    const view = viewAfterEvents(events, { locale: 'en' });
    const chunks = streamChunks({ text: 'Building.', plan: view.plan!, tasks: [{ id: 'c1', title: 'shell npm test', status: 'in_progress' }] }, 'en');
    expect(chunks).toEqual([
      { type: 'plan_update', title: expect.stringMatching(/1 \/ 2/) },
      { type: 'task_update', id: 'plan_1', title: 'Build', status: 'complete' },
      { type: 'task_update', id: 'plan_2', title: 'Ship', status: 'in_progress' },
      { type: 'task_update', id: 'c1', title: 'shell npm test', status: 'in_progress' },
      { type: 'markdown_text', text: 'Building.' },
    ]);
  });

  it('at stop: the final closes with the footer (and error) only; a roll-over says it continues', () => {
    const renderer = createSlackRenderer();
    const final = viewAfterEvents([...events, { type: 'run.failed', error: 'disk full', at: 40 }], { locale: 'en' });
    const closing = streamStopBlocks(renderer, final, 'final', 'en').map((b) => ('block_id' in b ? b.block_id?.split('.')[0] : b.type));
    expect(closing).toEqual(['error', 'footer']);
    expect(streamStopBlocks(renderer, final, 'roll-over', 'en')).toEqual([{ type: 'context', block_id: 'continued', elements: [{ type: 'mrkdwn', text: '_(continued below)_' }] }]);
  });
});
