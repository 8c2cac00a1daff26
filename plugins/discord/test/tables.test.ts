import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createDiscordRenderer } from '../src/render/renderer.js';

// Fault case F28 (an agent's markdown table shown as raw pipes; reported in NousResearch/hermes-agent#18918).
const F28 = [
  { type: 'run.started', title: 'Compare the test runners', locale: 'en' },
  { type: 'answer.delta', text: 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.' },
  { type: 'run.completed' },
] as const;
const ALIGNED = ['Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers'].join('\n');

describe('Discord: markdown tables', () => {
  it('draws the F28 table as an aligned code block in the embed, no raw |---| row', () => {
    const message = createDiscordRenderer({ locale: 'en' }).render(viewAfterEvents([...F28], { locale: 'en' }));
    const description = message.embeds?.[0]?.description ?? '';
    expect(description).toContain(`\`\`\`\n${ALIGNED}\n\`\`\``);
    expect(description).not.toMatch(/\|\s*-{3}/);
    expect(description).toContain('Use Vitest for the core.');
  });

  it('leaves a table inside a code fence as written', () => {
    const fenced = '```\n| a | b |\n|---|---|\n```';
    const message = createDiscordRenderer({ locale: 'en' }).render(viewAfterEvents([{ type: 'run.started', title: 't' }, { type: 'answer.delta', text: fenced }], { locale: 'en' }));
    expect(message.embeds?.[0]?.description).toContain('| a | b |\n|---|---|');
  });
});
