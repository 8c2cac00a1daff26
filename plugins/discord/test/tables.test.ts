import { MARKDOWN_TABLE_RUN, viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { createDiscordRenderer } from '../src/render/renderer.js';

// Fault case F28 (a markdown table shown as raw pipes), shared by every channel's table test.
const F28 = MARKDOWN_TABLE_RUN.events;
const ALIGNED = MARKDOWN_TABLE_RUN.aligned;

describe('Discord: markdown tables', () => {
  it('draws the F28 table as an aligned code block in the embed, no raw |---| row', () => {
    const message = createDiscordRenderer({ locale: 'en' }).render(viewAfterEvents(F28, { locale: 'en' }));
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
