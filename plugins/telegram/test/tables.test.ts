import { viewAfterEvents } from '@progresscard/core/testing';
import { telegramVisibleText } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import { createTelegramRenderer } from '../src/render/renderer.js';

// Fault case F28 (an agent's markdown table shown as raw pipes; reported in NousResearch/hermes-agent#18918).
const F28 = [
  { type: 'run.started', title: 'Compare the test runners', locale: 'en' },
  { type: 'answer.delta', text: 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.' },
  { type: 'run.completed' },
] as const;
const ALIGNED = ['Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers'].join('\n');

describe('Telegram: markdown tables', () => {
  it('draws the F28 table as an aligned <pre> block, no raw |---| row', () => {
    const { text } = createTelegramRenderer({ locale: 'en' }).render(viewAfterEvents([...F28], { locale: 'en' }));
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
    const [part] = createTelegramRenderer({ locale: 'en', answerAsDraft: true }).renderContinuations!(viewAfterEvents([...F28], { locale: 'en' }));
    expect(part?.text).toContain(`<pre>${ALIGNED}</pre>`);
  });
});
