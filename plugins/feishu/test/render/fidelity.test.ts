import { describe, expect, it } from 'vitest';
import { checkFeishuCardContent } from '@progresscard/emulator';
import { splitAtBlocks } from '../../src/render/answer-elements.js';
import { inspectCard, escapedContentBytes } from '../../src/render/guards.js';
import { countTables, limitTables } from '../../src/render/markdown/index.js';
import { createFeishuRenderer } from '../../src/render/renderer.js';
import { viewOf as viewAfter } from '../views.js';

const renderer = createFeishuRenderer({ footerStyle: 'compact', overflow: 'follow-up', timeZone: 'UTC' });

/** The request body the transport sends for a card: the card JSON escaped into `content`. */
const bodyBytes = (card: unknown) => Buffer.byteLength(JSON.stringify({ receive_id: 'oc_0123456789abcdef0123456789abcdef', msg_type: 'interactive', content: JSON.stringify(card), uuid: 'u'.repeat(50) }));

describe('Feishu fidelity: the 30 KB request body', () => {
  it('quote-dense JSON answers are cut so the escaped request body stays under 30 KB', () => {
    const json = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ "k": `v${i}`, "q": '"' })), null, 1);
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: `\`\`\`json\n${json}\n\`\`\`` }, { type: 'run.completed', at: 2 }], 3);
    for (const card of [renderer.render(view), ...renderer.renderContinuations!(view)]) {
      expect(escapedContentBytes(card)).toBe(inspectCard(card).bytes);
      expect(bodyBytes(card)).toBeLessThanOrEqual(30 * 1024);
      expect(checkFeishuCardContent(JSON.stringify(card)).ok).toBe(true);
    }
  });
});

describe('Feishu fidelity: long answers in several markdown components', () => {
  it('splits at block boundaries, each component at most 4 000 characters, nothing lost', () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(30)}`);
    const view = viewAfter([{ type: 'answer.delta', at: 1, text: paragraphs.join('\n\n') }, { type: 'run.completed', at: 2 }], 3);
    const answers = renderer.render(view).body.elements.filter((e) => /^answer(_\d+)?$/.test(e.element_id ?? ''));
    expect(answers.length).toBeGreaterThan(1);
    for (const element of answers) expect((element.content as string).length).toBeLessThanOrEqual(4000);
    const text = answers.map((e) => e.content as string).join('\n\n');
    for (const paragraph of paragraphs) expect(text).toContain(paragraph.trim());
  });

  it('cuts a long code block between lines, closing and reopening it', () => {
    const code = `\`\`\`ts\n${Array.from({ length: 600 }, (_, i) => `const a${i} = ${i};`).join('\n')}\n\`\`\``;
    const chunks = splitAtBlocks(code, 4000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.startsWith('```ts\n')).toBe(true);
      expect(chunk.endsWith('\n```')).toBe(true);
    }
  });
});

describe('Feishu fidelity: tables inside block quotes', () => {
  it('are counted, and those beyond the limit become code blocks inside the quote', () => {
    const quoted = Array.from({ length: 5 }, (_, i) => `> | t${i} | x |\n> | --- | --- |\n> | 1 | 2 |`).join('\n\n');
    expect(countTables(quoted)).toBe(5);
    const limited = limitTables(quoted, 3);
    expect(limited).toMatchObject({ kept: 3, converted: 2 });
    expect(countTables(limited.text)).toBe(3);
    expect(limited.text).toContain('> ```text\n> | t3 | x |');
  });
});

describe('Feishu fidelity: the emulator agrees on quoted tables', () => {
  it('a card with five quoted tables is accepted once the renderer converted the extra ones', () => {
    const quoted = Array.from({ length: 5 }, (_, i) => `> | t${i} | x |\n> | --- | --- |\n> | 1 | 2 |`).join('\n\n');
    const raw = JSON.stringify({ schema: '2.0', body: { elements: [{ tag: 'markdown', content: quoted }] } });
    expect(checkFeishuCardContent(raw).ok).toBe(false);
    const card = renderer.render(viewAfter([{ type: 'answer.delta', at: 1, text: quoted }, { type: 'run.completed', at: 2 }], 3));
    expect(checkFeishuCardContent(JSON.stringify(card)).ok).toBe(true);
  });
});
