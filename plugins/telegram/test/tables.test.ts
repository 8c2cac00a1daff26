import { MARKDOWN_TABLE_RUN, viewAfterEvents } from '@progresscard/core/testing';
import { telegramVisibleText } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import { createTelegramRenderer } from '../src/render/renderer.js';

// Fault case F28 (a markdown table shown as raw pipes), shared by every channel's table test.
const F28 = MARKDOWN_TABLE_RUN.events;
const ALIGNED = MARKDOWN_TABLE_RUN.aligned;

describe('Telegram: markdown tables', () => {
  it('draws the F28 table as an aligned <pre> block, no raw |---| row', () => {
    const { text } = createTelegramRenderer({ locale: 'en' }).render(viewAfterEvents(F28, { locale: 'en' }));
    expect(text).toContain(`<pre>${ALIGNED}</pre>`);
    const parsed = telegramVisibleText(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.text).not.toMatch(/\|\s*-{3}/);
    expect(parsed.text).toContain('Use Vitest for the core.');
  });

  it('escapes HTML in table cells', () => {
    const view = viewAfterEvents([{ type: 'run.started', title: 't' }, { type: 'answer.delta', text: '| a |\n|---|\n| <b>x</b> & y |' }], { locale: 'en' });
    const { text } = createTelegramRenderer({ locale: 'en' }).render(view);
    expect(text).toContain('&lt;b&gt;x&lt;/b&gt; &amp; y');
    expect(telegramVisibleText(text).ok).toBe(true);
  });

  it('streams the table aligned in answer drafts too', () => {
    const [part] = createTelegramRenderer({ locale: 'en', answerAsDraft: true }).renderContinuations!(viewAfterEvents(F28, { locale: 'en' }));
    expect(part?.text).toContain(`<pre>${ALIGNED}</pre>`);
  });
});
