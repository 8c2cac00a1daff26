import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChannelConfigError, createProgressCards, memoryChannel, silentLogger, type ChannelPlugin, type MemoryPayload } from '../../src/index.js';
import { parseChannelConfig, parseTimingOverrides, type StandardSchemaV1 } from '../../src/plugin/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** Config of a plugin whose author uses no zod at all. */
interface NotesConfig {
  readonly url: string;
  readonly budget?: readonly { readonly limit: number; readonly intervalMs: number }[];
}

type Issue = StandardSchemaV1.Issue;

/** A hand-written Standard Schema: paths mix plain keys and `{ key }` segments, as the spec allows. */
const NotesConfigSchema: StandardSchemaV1<unknown, NotesConfig> = {
  '~standard': {
    version: 1,
    vendor: 'notes-plugin',
    validate(input) {
      if (typeof input !== 'object' || input === null) return { issues: [{ message: 'must be an object' }] };
      const config = input as Record<string, unknown>;
      const issues: Issue[] = [];
      if (typeof config.url !== 'string' || !/^https?:\/\//.test(config.url)) issues.push({ message: 'must be an http(s) URL', path: ['url'] });
      if (config.budget !== undefined) {
        const windows = Array.isArray(config.budget) ? config.budget : [];
        windows.forEach((window: { limit?: unknown }, index) => {
          if (typeof window?.limit !== 'number' || window.limit <= 0) {
            issues.push({ message: 'must be a positive number', path: [{ key: 'budget' }, { key: index }, 'limit'] });
          }
        });
      }
      return issues.length > 0 ? { issues } : { value: config as unknown as NotesConfig };
    },
  },
};

/** A plugin factory built only on the core's public exports and the schema above. */
function notes(input: unknown): ChannelPlugin<MemoryPayload, string> & { readonly store: ReturnType<typeof memoryChannel>; readonly url: string } {
  const config = parseChannelConfig('notes', NotesConfigSchema, input);
  const store = memoryChannel({ id: 'notes' });
  // The inferred output type is the schema's: `config.url` is a string without a cast.
  const url: string = config.url;
  return { ...store, configSchema: NotesConfigSchema, overrides: parseTimingOverrides('notes', config), store, url };
}

describe('a plugin whose config schema is a hand-written Standard Schema (no zod)', () => {
  it('registers, validates its config and delivers a card', async () => {
    vi.useFakeTimers();
    const plugin = notes({ url: 'https://notes.example/cards', budget: [{ limit: 5, intervalMs: 1000 }] });
    expect(plugin.url).toBe('https://notes.example/cards');
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    expect(cards.settings('notes').budget).toEqual([{ limit: 5, intervalMs: 1000 }]);
    const card = cards.open('notes');
    card.start({ title: 'Notes' });
    card.complete('saved');
    await settle(5000);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    expect(plugin.store.messages.get(final.message!.id)!.history.at(-1)).toMatchObject({ title: 'Notes', status: 'completed', answer: 'saved' });
    await cards.shutdown();
  });

  it('a bad config value is an error naming the channel, the field and the value', () => {
    expect(() => notes({ url: 'ftp://notes.example' })).toThrow(new ChannelConfigError('notes', 'url', '"ftp://notes.example"', 'must be an http(s) URL'));
    const error = (() => {
      try {
        notes({ url: 'https://notes.example', budget: [{ limit: 5, intervalMs: 1000 }, { limit: 0, intervalMs: 1000 }] });
      } catch (thrown) {
        return thrown as ChannelConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ChannelConfigError);
    expect(error!.message).toBe('notes budget.1.limit = 0 (must be a positive number)');
    expect(() => notes('https://notes.example')).toThrow('notes (config) = "https://notes.example" (must be an object)');
  });

  it('refuses a schema that validates asynchronously, naming the channel', () => {
    const asyncSchema: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'async', validate: async (value) => ({ value }) } };
    expect(() => parseChannelConfig('notes', asyncSchema, {})).toThrow(/notes config schema validates asynchronously/);
  });
});
