import type { CardView } from '@progresscard/core/plugin';
import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { DingTalkRenderer } from '../../src/render/renderer.js';

const renderer = new DingTalkRenderer({
  keys: { title: 'msgTitle', content: 'msgContent', flowStatus: 'flowStatus' },
  footerStyle: 'compact',
  timeZone: 'UTC',
  maxContentChars: 3000,
  maxToolLines: 12,
  controls: 'buttons',
  controlsKey: 'pcControls',
});
const base = viewAfterEvents([{ type: 'run.started', title: 'Deploy', at: 0 }], { locale: 'en' });
const waiting = (replyByText: boolean): CardView => ({
  ...base,
  status: 'waiting',
  controls: { cardId: 'c1', pending: { id: 'ia_1', prompt: 'Deploy?', options: [{ id: 'approve', label: 'Approve', approves: true }, { id: 'deny', label: 'Deny' }], freeText: false, code: '3F2A' }, stop: true, ...(replyByText ? { replyByText: true } : {}) },
});

describe('DingTalk controls when the card callbacks could not start', () => {
  it('the controls variable is emptied (no buttons that go nowhere) and the content says what to reply', () => {
    const buttons = renderer.render(waiting(false)).cardParamMap;
    expect(JSON.parse(buttons.pcControls!).buttons.map((b: { text: string }) => b.text)).toEqual(['Approve', 'Deny', '⏹ Stop']);
    expect(buttons.msgContent).not.toContain('/approve');
    const text = renderer.render(waiting(true)).cardParamMap;
    expect(text.pcControls).toBe('');
    expect(text.msgContent).toContain('Reply: `/approve 3F2A`（Approve） / `/deny 3F2A`（Deny）');
  });
});
