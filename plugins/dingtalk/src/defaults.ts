import type { ChannelSettings } from '@progresscard/core';

/**
 * DingTalk channel defaults (ms):
 * - `tickMs` 3000: running tools' elapsed times refresh every 3 s (env `DINGTALK_CARD_TOOL_TICK_MS`, applied by the core);
 * - `budget` 20 calls per second for the whole channel: the documented limit is 20 QPS per app per API
 *   (how-to-process-api-throttling-on-the-dingtalk-server); sharing one window across the card APIs is
 *   the safe reading, and what the working OSS clients do (one process-wide bucket, §4b);
 * - `perCardIntervalMs` 500: one card updates at most twice a second (clients that work use 500–1500 ms);
 * - `debounceMs` 2500: streamed text is released to the card at least this often.
 */
export const DINGTALK_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [{ limit: 20, intervalMs: 1000 }],
  perCardIntervalMs: 500,
  debounceMs: 2500,
};
