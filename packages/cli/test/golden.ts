import { channelDescriptor, CHANNEL_IDS, SMOKE_SCENARIOS, type ChannelId } from '../src/index.js';
import { goldenPayloads, type GoldenPayloads } from '../src/smoke/golden.js';

/** Where the golden payloads live: `fixtures/golden/<channel>/<scenario>.json`. */
export function goldenFile(channel: ChannelId, scenario: string): string {
  return new URL(`./fixtures/golden/${channel}/${scenario}.json`, import.meta.url).pathname;
}

/** Every (channel, scenario) pair with its payloads rendered now. */
export function renderAllGolden(): Array<{ channel: ChannelId; scenario: string; payloads: GoldenPayloads }> {
  return CHANNEL_IDS.flatMap((channel) =>
    SMOKE_SCENARIOS.map((scenario) => ({ channel, scenario: scenario.id, payloads: goldenPayloads(channelDescriptor(channel), scenario) })),
  );
}

/** The JSON text a golden file holds. */
export const goldenText = (payloads: GoldenPayloads) => `${JSON.stringify(payloads, null, 2)}\n`;
