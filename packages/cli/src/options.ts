import { InvalidArgumentError } from 'commander';
import type { Locale } from '@progresscard/core';
import { channelIds, type ChannelId } from './channels/index.js';

/**
 * Option value parsers for commander. Each throws commander's `InvalidArgumentError`, which
 * commander prints as `error: option '--speed <n>' argument 'fast' is invalid. <why>`, so the
 * message always names the option and the value the user typed.
 */

/** `--speed`: a finite number > 0 (e.g. `2`, `0.5`, `60`). */
export function parseSpeed(value: string): number {
  const speed = Number(value);
  if (value.trim() === '' || !Number.isFinite(speed) || speed <= 0) {
    throw new InvalidArgumentError('Expected a number greater than 0, e.g. --speed 2 (twice as fast as recorded).');
  }
  if (speed > 10_000) throw new InvalidArgumentError('Expected at most 10000.');
  return speed;
}

/** `--port`: an integer 0–65535 (0 = any free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('Expected an integer from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

/** `--max-gap`: longest pause kept between two events, in ms (integer ≥ 0). */
export function parseMaxGap(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(ms)) {
    throw new InvalidArgumentError('Expected a whole number of milliseconds ≥ 0, e.g. --max-gap 15000.');
  }
  return ms;
}

/** `--idle`: quiet time after which a run ends, in ms (integer > 0). */
export function parseIdle(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new InvalidArgumentError('Expected a whole number of milliseconds greater than 0, e.g. --idle 120000.');
  }
  return ms;
}

/** `--lang`: `zh` / `zh-CN` → zh-CN, `en` → en. */
export function parseLang(value: string): Locale {
  const v = value.trim().toLowerCase();
  if (v === 'zh' || v === 'zh-cn') return 'zh-CN';
  if (v === 'en') return 'en';
  throw new InvalidArgumentError('Expected zh or en.');
}

/** `--channel`: a channel id (`feishu`, `dingtalk`, `slack`, … or a plugin module's) or `all`. */
export function parseChannel(value: string): ChannelId[] {
  const v = value.trim().toLowerCase();
  const ids = channelIds();
  if (v === 'all') return [...ids];
  const id = ids.find((channel) => channel === v);
  if (id) return [id];
  throw new InvalidArgumentError(`Expected ${ids.join(', ')} or all (a plugin's channel needs --plugin <module> or a progresscard.config.mjs).`);
}

/**
 * A `--channel` value added to those given before it: `--channel slack --channel telegram` takes
 * both, in order, each once (`all` takes every channel). `previous` is the default (every channel)
 * until the flag is first given: `isDefault` tells it apart, so a given flag replaces the default.
 * @throws InvalidArgumentError for an unknown channel (see {@link parseChannel}).
 */
export function addChannel(value: string, previous: readonly ChannelId[] | undefined, isDefault: (list: readonly ChannelId[]) => boolean): ChannelId[] {
  const added = parseChannel(value);
  if (!previous || isDefault(previous)) return added;
  return [...new Set([...previous, ...added])];
}

/** `--tick-ms`, `--processes`, `--run-minutes`, `--monthly-quota`, `--run-call-cap`: a whole number > 0. */
export function parsePositiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('Expected a whole number greater than 0.');
  return n;
}
