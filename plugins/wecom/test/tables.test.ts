import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createWeComRenderer } from '../src/render/renderer.js';

// Fault case F28 (an agent's markdown table shown as raw pipes; reported in NousResearch/hermes-agent#18918).
const F28 = [
  { type: 'run.started', title: 'Compare the test runners', locale: 'en' },
  { type: 'answer.delta', text: 'Here is the comparison:\n\n| Tool | Best for | Runs in |\n|---|---|---|\n| Vitest | Unit tests | Node |\n| Playwright | E2E flows | Browsers |\n\nUse Vitest for the core.' },
  { type: 'run.completed' },
] as const;
const ALIGNED = ['Tool        Best for    Runs in', '----------  ----------  --------', 'Vitest      Unit tests  Node', 'Playwright  E2E flows   Browsers'].join('\n');

describe('WeCom: markdown tables', () => {
  it('draws the F28 table as an aligned code block in the stream markdown, no raw |---| row', () => {
    const { markdown } = createWeComRenderer({ locale: 'en' }).render(viewAfterEvents([...F28], { locale: 'en' }));
    expect(markdown).toContain(`\`\`\`\n${ALIGNED}\n\`\`\``);
    expect(markdown).not.toMatch(/\|\s*-{3}/);
    expect(markdown).toContain('Use Vitest for the core.');
  });
});
