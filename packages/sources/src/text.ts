/** Text helpers shared by the converters: titles, one-line summaries, timestamps, JSON shapes. */
import { oneLine } from '@progresscard/core/plugin';

/** Longest run title, in characters; longer titles end with `…`. */
export const MAX_TITLE_CHARS = 60;
/** Longest tool summary, in characters; longer summaries end with `…`. */
export const MAX_SUMMARY_CHARS = 120;

/** A plain JSON object. */
export type Json = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string at `value`, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The finite number at `value`, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Collapses whitespace and cuts `text` to `max` code points (the last one `…`), never inside an emoji. */
function shorten(text: string, max: number): string {
  return oneLine(text, max);
}

/** The first line of `text` that has more than whitespace, trimmed; `''` when none. */
function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) return trimmed;
  }
  return '';
}

/**
 * A tool result as one short line: the first non-empty line, without `<tool_use_error>` tags, a
 * leading Markdown heading mark or a `12→` line-number gutter, cut to {@link MAX_SUMMARY_CHARS}.
 * Undefined for empty output.
 */
export function summarize(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const cleaned = text.replace(/<\/?tool_use_error>/g, '');
  // `     1→text` is a Claude Read result's line-number gutter.
  const line = firstLine(cleaned).replace(/^#{1,6}\s+/, '').replace(/^\d+→/, '');
  return line ? shorten(line, MAX_SUMMARY_CHARS) : undefined;
}

/** Text that opens with a tag (`<task-notification>`, `<system-reminder>`…) was written by the harness, not typed. */
const HARNESS_MARKUP = /^<[A-Za-z][\w-]*>/;

/**
 * A run title from the first user prompt: a slash command as `/name args`, the part after Codex's
 * IDE preamble (`## My request for Codex:`), for harness markup (`<task-notification>…`) its
 * `<summary>` or its text without tags, otherwise the first non-empty line; cut to
 * {@link MAX_TITLE_CHARS}. Undefined for an empty prompt.
 */
export function titleFrom(prompt: string): string | undefined {
  const command = /<command-name>([\s\S]*?)<\/command-name>/.exec(prompt);
  if (command) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(prompt)?.[1]?.trim() ?? '';
    const name = command[1]!.trim();
    return shorten(args ? `${name} ${args}` : name, MAX_TITLE_CHARS) || undefined;
  }
  const marker = prompt.indexOf('## My request for Codex:');
  let body = marker >= 0 ? prompt.slice(marker + '## My request for Codex:'.length) : prompt;
  if (HARNESS_MARKUP.test(body.trimStart())) {
    // Harness-injected text (`<task-notification>…<summary>Background command … completed</summary>`):
    // its summary, else its text without the tags.
    const summary = /<summary>([\s\S]*?)<\/summary>/.exec(body)?.[1];
    body = summary ?? body.replace(/<\/?[A-Za-z][\w-]*>/g, '\n');
  }
  const line = firstLine(body).replace(/^#{1,6}\s+/, '');
  return line ? shorten(line, MAX_TITLE_CHARS) : undefined;
}

/** Epoch ms of an ISO timestamp string (or an epoch-ms number); undefined when unreadable. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  if (typeof value !== 'string' || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** `value` as raw JSON argument text: strings stay as they are, anything else is serialised. */
export function argsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
