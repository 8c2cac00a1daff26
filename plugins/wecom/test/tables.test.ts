import { MARKDOWN_TABLE_RUN, viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createWeComRenderer } from '../src/render/renderer.js';

// Fault case F28 (a markdown table shown as raw pipes), shared by every channel's table test.
const F28 = MARKDOWN_TABLE_RUN.events;
const ALIGNED = MARKDOWN_TABLE_RUN.aligned;

describe('WeCom: markdown tables', () => {
  it('draws the F28 table as an aligned code block in the stream markdown, no raw |---| row', () => {
    const { markdown } = createWeComRenderer({ locale: 'en' }).render(viewAfterEvents(F28, { locale: 'en' }));
    expect(markdown).toContain(`\`\`\`\n${ALIGNED}\n\`\`\``);
    expect(markdown).not.toMatch(/\|\s*-{3}/);
    expect(markdown).toContain('Use Vitest for the core.');
  });
});
