import { describe, expect, it } from 'vitest';
import { agentMarkdown } from '../src/render/markdown.js';

/**
 * Discord shows code spans literally (no mentions, timestamps or emoji markup inside backticks,
 * https://discord.com/developers/docs/reference#message-formatting), so the zero-width space that
 * breaks `<…>` markup in prose must not land inside inline code, where a reader copies it along.
 */
describe('Discord agent markdown: angle brackets', () => {
  it('inline code keeps its < as written', () => {
    expect(agentMarkdown('use `Array<string>` and ``a<b``')).toBe('use `Array<string>` and ``a<b``');
  });

  it('prose markup is still broken, and fenced code kept', () => {
    expect(agentMarkdown('ping <@123> then')).toBe('ping <\u200b@123> then');
    expect(agentMarkdown('```ts\nconst x: Array<string> = [];\n```')).toBe('```ts\nconst x: Array<string> = [];\n```');
  });
});
