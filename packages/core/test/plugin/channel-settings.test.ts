import { describe, expect, it } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ChannelSettings } from '../../src/index.js';

const compose = (overrides: Partial<ChannelSettings>) =>
  createProgressCards({ channels: [memoryChannel({ id: 'webhook', overrides })], logger: silentLogger, env: {} });

/**
 * A channel's own overrides (a custom plugin's config) are checked like Feishu's and DingTalk's:
 * a NaN interval used to disable the per-card limit, an empty budget the channel's rate limit.
 */
describe('channel settings from a plugin', () => {
  it.each([
    [{ perCardIntervalMs: Number.NaN }, 'webhook perCardIntervalMs = NaN'],
    [{ perCardIntervalMs: -250 }, 'webhook perCardIntervalMs = -250'],
    [{ debounceMs: Number.NaN }, 'webhook debounceMs = NaN'],
    [{ budget: [] }, 'webhook budget = []'],
    [{ budget: [{ limit: 0, intervalMs: 1000 }] }, 'webhook budget.0.limit = 0'],
    [{ budget: [{ limit: 5, intervalMs: 1.5 }] }, 'webhook budget.0.intervalMs = 1.5'],
  ])('%o is refused with the channel, field and value', (overrides, message) => {
    expect(() => compose(overrides as Partial<ChannelSettings>)).toThrow(message);
  });

  it('valid overrides are used', () => {
    const cards = compose({ perCardIntervalMs: 0, debounceMs: 100, budget: [{ limit: 2, intervalMs: 500 }] });
    expect(cards.settings('webhook')).toMatchObject({ perCardIntervalMs: 0, debounceMs: 100, budget: [{ limit: 2, intervalMs: 500 }] });
  });
});
