import type { Locale } from './view.js';

/**
 * The card's language: which one a card speaks when the run does not say, and `auto`, which
 * follows the run's own text.
 */

/** A card language as a run or a channel asks for it: a {@link Locale}, or `auto` (the run's own text decides). */
export type LocaleSetting = Locale | 'auto';

/**
 * Each channel's default card language, by channel id: what most of its users read. Feishu,
 * DingTalk and WeCom users mostly read Chinese; Slack, Telegram, Discord and Teams users mostly do not.
 */
export const CHANNEL_DEFAULT_LOCALES: Readonly<Record<string, Locale>> = {
  feishu: 'zh-CN',
  dingtalk: 'zh-CN',
  wecom: 'zh-CN',
  slack: 'en',
  telegram: 'en',
  discord: 'en',
  teams: 'en',
};

/** Language of a channel missing from {@link CHANNEL_DEFAULT_LOCALES} (the card's language before channels had defaults). */
export const FALLBACK_LOCALE: Locale = 'zh-CN';

/** The default card language of channel `channelId` (see {@link CHANNEL_DEFAULT_LOCALES}). */
export function channelDefaultLocale(channelId: string): Locale {
  return Object.hasOwn(CHANNEL_DEFAULT_LOCALES, channelId) ? CHANNEL_DEFAULT_LOCALES[channelId]! : FALLBACK_LOCALE;
}

/** Text looked at to tell its language, in characters: the start says it. */
const SAMPLE_CHARS = 2000;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;
const LATIN_WORD = /[A-Za-z]{2,}/g;

/**
 * The language of `text`: `zh-CN` when it has at least as many Han characters as Latin words
 * (a Chinese sentence with `npm test` or a file name in it is still Chinese; one Chinese name
 * in an English sentence is not), `en` when it has Latin words and fewer Han characters,
 * `undefined` when it has neither (empty, digits, emoji).
 */
export function detectLocale(text: string): Locale | undefined {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const han = sample.match(HAN)?.length ?? 0;
  const words = sample.match(LATIN_WORD)?.length ?? 0;
  if (han === 0 && words === 0) return undefined;
  return han >= words ? 'zh-CN' : 'en';
}
