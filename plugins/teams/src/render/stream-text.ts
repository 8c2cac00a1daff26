import { tablesAsAligned, type Locale } from '@progresscard/core/plugin';

/** A line that can be a GFM table row (header, delimiter or body): it has a pipe, is not blank and not indented as code. */
const isRowLine = (line: string) => line.includes('|') && line.trim() !== '' && !/^( {4}|\t)/.test(line);

/**
 * The start of a growing answer that no later text can turn into (or extend) a table: everything before
 * the trailing lines that may still be one. Held back are the last, unfinished line when it has a pipe
 * (a header row waiting for its delimiter row) or follows table rows (it may be one more row), and the
 * complete rows just above it (a table grows a row at a time, and its columns are padded to the widest
 * cell, so an earlier drawing of it would not be a prefix of the next). Prose streams as it comes: a
 * header row written without a leading pipe (`k | v`) may have streamed its first words as prose before
 * its pipe came; the stream then waits, and its closing text keeps what was streamed (a known gap; agents
 * almost always open table rows with a pipe).
 */
export function settledAnswerText(text: string): string {
  if (!text.includes('|')) return text;
  const lines = text.split('\n');
  const last = lines.length - 1;
  let start = last;
  while (start > 0 && isRowLine(lines[start - 1]!)) start -= 1;
  if (start === last && !lines[last]!.includes('|')) return text;
  return start === 0 ? '' : `${lines.slice(0, start).join('\n')}\n`;
}

/**
 * The text a Teams stream shows of a growing answer: its settled start ({@link settledAnswerText}) with
 * every table drawn as an aligned monospace block, as the channel's replies draw them. A stream chunk
 * is text only and must carry all the text streamed before it ("bot messages must include previously
 * streamed content", https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux), so a table
 * cannot be an Adaptive Card Table there (attachments only on the final message, same page) and is shown
 * once its last row is in, never as raw `| a | b |` rows; each chunk's text starts with the one before.
 */
export function liveStreamText(text: string, locale: Locale): string {
  return tablesAsAligned(settledAnswerText(text), { locale });
}

/** The closing text of a stream: the whole share with its tables aligned (a prefix of it was streamed by {@link liveStreamText}). */
export function closingStreamText(text: string, locale: Locale): string {
  return tablesAsAligned(text, { locale });
}
