import { describe, expect, it } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';

function cards() {
  return createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {} });
}

describe('open() refuses bad options, naming the field and value', () => {
  it.each([
    ['verbosity', 'loud'],
    ['chatType', 'channelz'],
    ['cardPer', 'x'],
    ['locale', 'fr'],
    ['title', 42],
  ])('%s = %j', (field, value) => {
    expect(() => cards().open('memory', undefined, { [field]: value } as never)).toThrow(new RegExp(`^open ${field} = ${JSON.stringify(JSON.stringify(value)).slice(1, -1)}: `));
  });

  it('nested fields are named by their path', () => {
    expect(() => cards().open('memory', undefined, { textBuffer: { maxSegments: 0, maxChars: 100 } })).toThrow(/^open textBuffer\.maxSegments = 0: /);
    expect(() => cards().open('memory', undefined, { requester: { id: '' } })).toThrow(/^open requester\.id = "": /);
    expect(() => cards().open('memory', undefined, { message: { id: 7 } } as never)).toThrow(/^open message\.id = 7: /);
  });

  it('good options open a card', () => {
    const card = cards().open('memory', undefined, { verbosity: 'quiet', chatType: 'group', cardPer: 'turn', locale: 'en', runId: 'r1' });
    expect(card.start({ title: 't' }).accepted).toBe(true);
  });
});
