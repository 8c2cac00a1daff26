import { viewAfterEvents } from '@progresscard/core/testing';
import { oversizedAnswer } from '@progresscard/core/testing/conformance';
import { describe, expect, it } from 'vitest';
import { createWeComRenderer } from '../src/render/renderer.js';

const renderer = createWeComRenderer({ locale: 'en' });
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const answered = (answer: string) => viewAfterEvents([{ type: 'run.started', title: 'Report' }, { type: 'run.completed', answer }], { locale: 'en' });

describe('the WeCom renderer', () => {
  it('keeps the stream within 20 480 bytes and continues the answer in one follow-up message', () => {
    const view = answered(oversizedAnswer());
    const card = renderer.render(view);
    expect(bytes(card.markdown)).toBeLessThanOrEqual(20_480);
    expect(card.markdown).toContain('continues in the next message');
    const [part, ...more] = renderer.renderContinuations!(view);
    expect(more).toEqual([]);
    expect(bytes(part!.markdown)).toBeLessThanOrEqual(20_480);
    expect(part!.markdown).toContain('END-OF-ANSWER');
    expect(part!.terminal).toBe(true);
  });

  it('agent text cannot mention, tag or link outside http(s)/mailto; code stays as written', () => {
    const { markdown } = renderer.render(answered('Ask <at id=all></at> and <font color="warning">x</font>; [run](javascript:alert(1)) or [docs](https://example.com).\n\n```sh\necho "<b>"\n```'));
    expect(markdown).not.toContain('<at id=all>');
    expect(markdown).not.toContain('<font');
    expect(markdown).not.toContain('](javascript:');
    expect(markdown).toContain('[docs](https://example.com)');
    expect(markdown).toContain('```sh\necho "<b>"\n```');
  });

  it('draws the open question and Stop as a button_interaction card with keys the callbacks can read', () => {
    const view = viewAfterEvents([{ type: 'run.started', title: 'Deploy' }], { locale: 'en' });
    const withControls = { ...view, controls: { cardId: 'c1', stop: true, pending: { id: 'q1', prompt: 'Publish?', options: [{ id: 'approve', label: 'Approve', style: 'primary' as const }, { id: 'deny', label: 'Deny', style: 'danger' as const }], freeText: false, code: '3F2A' } } };
    const { card } = renderer.render(withControls);
    expect(card).toMatchObject({ card_type: 'button_interaction', task_id: 'pc_c1' });
    expect(card!.button_list.map((b) => [b.text, b.key])).toEqual([
      ['Approve', 'pc|c1|q1|approve'],
      ['Deny', 'pc|c1|q1|deny'],
      ['Stop', 'pc|c1|stop|stop'],
    ]);
  });
});
