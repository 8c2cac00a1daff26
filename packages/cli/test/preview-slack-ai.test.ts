import { describe, expect, it } from 'vitest';
import { renderSlackMessage } from '../src/preview/render-slack.js';
import { renderTeamsActivity } from '../src/preview/render-teams.js';
import { PLATFORM_STOP_BUTTON } from '../src/preview/model.js';

const rich = (text: string) => ({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] });

describe('preview: Slack AI blocks and the platform Stop on live streams', () => {
  it('draws plan, task_card and table blocks (plain-text titles escaped, table alignment kept)', () => {
    const html = renderSlackMessage('card', [
      { type: 'plan', title: 'Plan · 1 / 2', tasks: [{ task_id: 'plan_1', title: 'Read <b>', status: 'complete' }, { task_id: 'plan_2', title: 'Write', status: 'in_progress' }] },
      { type: 'task_card', task_id: 'c1', title: 'shell: npm test (failed)', status: 'error', details: rich('exit 2') },
      { type: 'table', rows: [[rich('Tool'), rich('Runs')], [rich('Vitest'), { type: 'raw_number', text: '12' }]], column_settings: [{}, { align: 'right' }] },
    ]);
    expect(html).toContain('Plan · 1 / 2');
    expect(html).toContain('class="task task-complete"');
    expect(html).toContain('Read &lt;b&gt;');
    expect(html).toContain('class="task task-error"');
    expect(html).toContain('exit 2');
    expect(html).toContain('<th>Tool</th>');
    expect(html).toContain('<td style="text-align:right">12</td>');
  });

  it('a Slack stream shows its plan, tasks and text, and the Stop control only while it streams', () => {
    const stream = { planTitle: 'Plan · 0 / 1', tasks: [{ id: 'plan_1', title: 'Migrate', status: 'in_progress' }] };
    const live = renderSlackMessage('Step **1** done.', [], { state: 'streaming', ...stream });
    expect(live).toContain('Migrate');
    expect(live).toContain('<strong>1</strong>');
    expect(live).toContain(`data-button="${PLATFORM_STOP_BUTTON}"`);
    expect(renderSlackMessage('Step 1 done.', [], { state: 'stopped', ...stream })).not.toContain(PLATFORM_STOP_BUTTON);
  });

  it('a Teams message shows the Stop control while it streams', () => {
    expect(renderTeamsActivity('Typing…', [], undefined, true)).toContain(`data-button="${PLATFORM_STOP_BUTTON}"`);
    expect(renderTeamsActivity('Done.', [], undefined, false)).not.toContain(PLATFORM_STOP_BUTTON);
  });
});
