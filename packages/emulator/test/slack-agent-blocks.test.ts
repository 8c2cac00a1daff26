import { describe, expect, it } from 'vitest';
import { createSlackEmulator, DEFAULT_SLACK_WORKSPACE } from '../src/index.js';

const { botToken, channel } = DEFAULT_SLACK_WORKSPACE;

/** Posts `blocks` (then, with `update`, edits the message to them) through the emulator's app, no server. */
async function post(blocks: unknown[], update = false): Promise<string> {
  const emulator = createSlackEmulator();
  const call = async (method: string, args: Record<string, unknown>) => {
    const response = await emulator.app.request(`/api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ channel, text: 'card', ...args }) });
    return (await response.json()) as { ok: boolean; error?: string; ts?: string };
  };
  if (!update) {
    const answer = await call('chat.postMessage', { blocks });
    return answer.ok ? 'ok' : answer.error!;
  }
  const { ts } = await call('chat.postMessage', { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'first' } }] });
  const answer = await call('chat.update', { ts, blocks });
  return answer.ok ? 'ok' : answer.error!;
}

const rich = (text: string) => ({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] });
const plan = (tasks: unknown[]) => ({ type: 'plan', title: 'Plan · 1 / 2', tasks });
const task = (id: string, status = 'complete') => ({ task_id: id, title: `Task ${id}`, status });
const table = (rows: number, cells: number) => ({ type: 'table', rows: Array.from({ length: rows }, (_, r) => Array.from({ length: cells }, (_, c) => ({ type: 'raw_text', text: `${r}.${c}` }))) });

describe('Slack emulator: plan, task_card and table blocks (shapes and limits, https://docs.slack.dev/reference/block-kit/blocks)', () => {
  it('accepts the documented shapes, in a post and in an update', async () => {
    expect(await post([plan([task('plan_1'), task('plan_2', 'in_progress')])])).toBe('ok');
    expect(await post([{ type: 'task_card', task_id: 'c1', title: 'shell: npm test', status: 'in_progress', details: rich('npm test'), sources: [{ type: 'url', url: 'https://ci.example/1', text: 'CI' }] }], true)).toBe('ok');
    expect(await post([table(100, 20)], true)).toBe('ok');
    expect(await post([{ type: 'table', rows: [[rich('a'), { type: 'raw_number', text: '12' }]], column_settings: [{ align: 'left' }, { align: 'right' }] }])).toBe('ok');
  });

  it('refuses broken shapes with invalid_blocks', async () => {
    expect(await post([plan([task('plan_1', 'completed')])])).toBe('invalid_blocks');
    expect(await post([{ type: 'task_card', task_id: 'c1', title: 'x', status: 'done' }], true)).toBe('invalid_blocks');
    expect(await post([{ type: 'task_card', title: 'no id' }])).toBe('invalid_blocks');
    expect(await post([{ type: 'plan', tasks: [] }])).toBe('invalid_blocks');
    expect(await post([plan([task('a'), task('a')])])).toBe('invalid_blocks');
    expect(await post([{ type: 'task_card', task_id: 'c1', title: 'x', details: { type: 'mrkdwn', text: 'no' } }])).toBe('invalid_blocks');
    expect(await post([{ type: 'table', rows: [[{ type: 'raw_text', text: '' }]] }])).toBe('invalid_blocks');
    expect(await post([{ type: 'table', rows: [[rich('a')]], column_settings: [{ align: 'middle' }] }])).toBe('invalid_blocks');
  });

  it('refuses past the limits: 101 rows, 21 cells, 51 plan tasks', async () => {
    expect(await post([table(101, 2)])).toBe('invalid_blocks');
    expect(await post([table(2, 21)], true)).toBe('invalid_blocks');
    expect(await post([plan(Array.from({ length: 51 }, (_, i) => task(`t${i}`)))])).toBe('invalid_blocks');
    expect(await post([plan(Array.from({ length: 50 }, (_, i) => task(`t${i}`)))])).toBe('ok');
  });

  it('refuses a plan next to a task_card, and a second table, in one message', async () => {
    expect(await post([plan([task('plan_1')]), { type: 'task_card', task_id: 'c1', title: 'x' }])).toBe('invalid_blocks');
    expect(await post([table(2, 2), table(2, 2)], true)).toBe('invalid_blocks');
    expect(await post([{ type: 'task_card', task_id: 'c1', title: 'x' }, { type: 'task_card', task_id: 'c2', title: 'y' }, table(2, 2)])).toBe('ok');
  });
});
