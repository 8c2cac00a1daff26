import { attachmentText, changedFilesLines, cut, imagePlaceholderText, isTerminalStatus, noProgressNote, planHeading, planLines, type CardView, type Locale } from '@progresscard/core/plugin';
import type { SlackBlock } from './payload.js';
import { plainMrkdwn } from './mrkdwn.js';

/** Text of agent data as plain mrkdwn: `&`, `<`, `>` escaped, links other than http, https and mailto as plain text. */
const plain = plainMrkdwn;

const section = (text: string, blockId: string, maxChars: number): SlackBlock => ({ type: 'section', block_id: blockId, text: { type: 'mrkdwn', text: cut(text, maxChars) } });

/** The plan checklist: `*Plan · 2 / 5*` and a line per item (✅ done, ▶ in progress, ○ pending). */
export function planBlocks(view: CardView, locale: Locale, maxChars: number): SlackBlock[] {
  if (!view.plan) return [];
  const lines = [`*${plain(planHeading(view.plan, locale))}*`, ...planLines(view.plan, locale).map(plain)];
  return [section(lines.join('\n'), 'plan', maxChars)];
}

/** The changed-files summary on the final card: `*4 files changed*` and a bullet per file (8 at most, the rest counted). */
export function changedFilesBlocks(view: CardView, locale: Locale, maxChars: number): SlackBlock[] {
  if (!isTerminalStatus(view.status) || view.changedFiles.length === 0) return [];
  const { heading, items } = changedFilesLines(view.changedFiles, locale);
  return [section([`*${plain(heading)}*`, ...items.map((item) => `• ${plain(item)}`)].join('\n'), 'changed_files', maxChars)];
}

/**
 * The files the run attached: `📎 report.md`, a link to the file when the upload answered its
 * permalink (`<url|📎 report.md>`, https://docs.slack.dev/messaging/formatting-message-text#linking-urls),
 * or why one was not uploaded.
 */
export function attachmentBlocks(view: CardView, locale: Locale, maxChars: number): SlackBlock[] {
  const files = view.attachments ?? [];
  if (files.length === 0) return [];
  const line = (file: (typeof files)[number]) => {
    const text = plain(attachmentText(file, locale));
    return file.url && /^https?:\/\/[^\s<>|]+$/.test(file.url) ? `<${file.url}|${text.replace(/\|/g, '¦')}>` : text;
  };
  return [section(files.map((file) => `• ${line(file)}`).join('\n'), 'attachments', maxChars)];
}

/** The liveness note as a context line while the running card has been quiet. */
export function livenessBlocks(view: CardView, locale: Locale, timeZone: string | undefined): SlackBlock[] {
  if (view.noProgressSince === undefined) return [];
  return [{ type: 'context', block_id: 'liveness', elements: [{ type: 'mrkdwn', text: plain(noProgressNote(view.noProgressSince, locale, timeZone)) }] }];
}

/**
 * The card's images as one context line of their texts (`[image: chart.png]`): a Slack message
 * shows an image by public URL only (image block), and uploading files (`files.getUploadURLExternal`
 * and `files.completeUploadExternal`) would post them as separate messages, so the card names them.
 */
export function imagesBlocks(view: CardView, locale: Locale, maxChars: number): SlackBlock[] {
  if (view.images.length === 0) return [];
  const text = cut(view.images.map((image) => plain(imagePlaceholderText(image, locale))).join('  '), maxChars);
  return [{ type: 'context', block_id: 'images', elements: [{ type: 'mrkdwn', text }] }];
}
