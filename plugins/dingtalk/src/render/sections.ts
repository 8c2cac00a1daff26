import { attachmentText, changedFilesLines, imagePlaceholderText, isTerminalStatus, noProgressNote, planHeading, planLines, type CardView, type Locale } from '@progresscard/core/plugin';
import { escapeInline } from './markdown.js';

/**
 * The plan checklist as card markdown (documented subset: `*` bullets, bold, no inline code):
 * `**计划 · 2 / 5**` and one bullet per item, ✅ done, ▶ in progress, ○ pending. `''` without a plan.
 */
export function planBlock(view: CardView, locale: Locale): string {
  if (!view.plan) return '';
  const lines = planLines(view.plan, locale).map((line) => `* ${escapeInline(line)}`);
  return [`**${escapeInline(planHeading(view.plan, locale))}**`, ...lines].join('\n');
}

/** The changed-files summary on the final card: `**4 files changed**` and a bullet per file (8 at most, the rest counted). */
export function changedFilesBlock(view: CardView, locale: Locale): string {
  if (!isTerminalStatus(view.status) || view.changedFiles.length === 0) return '';
  const { heading, items } = changedFilesLines(view.changedFiles, locale);
  return [`**${escapeInline(heading)}**`, ...items.map((item) => `* ${escapeInline(item)}`)].join('\n');
}

/** The files the run attached: `📎 report.md`, or why one was not uploaded; `''` when none. */
export function attachmentsBlock(view: CardView, locale: Locale): string {
  return (view.attachments ?? []).map((file) => `* ${escapeInline(attachmentText(file, locale))}`).join('\n');
}

/** The liveness note in the secondary text colour, `''` unless the running card has been quiet. */
export function livenessBlock(view: CardView, locale: Locale, timeZone: string | undefined): string {
  if (view.noProgressSince === undefined) return '';
  return `<font colorTokenV2=common_level3_base_color>${escapeInline(noProgressNote(view.noProgressSince, locale, timeZone))}</font>`;
}

/**
 * The card's images as their text, one per line in the secondary colour (`[图片: chart.png]`):
 * DingTalk card markdown shows images by URL only as far as the documentation says
 * (https://open.dingtalk.com/document/development/markdown-variable-new); whether an AI card shows a
 * `media_id` from the media upload is UNCONFIRMED, so the plugin uploads nothing and the card never
 * carries a reference DingTalk could refuse. `''` without images.
 */
export function imagesBlock(view: CardView, locale: Locale): string {
  if (view.images.length === 0) return '';
  return view.images.map((image) => `<font colorTokenV2=common_level3_base_color>${escapeInline(imagePlaceholderText(image, locale))}</font>`).join('\n\n');
}
