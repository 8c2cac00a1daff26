import {
  attachmentText,
  changedFilesLines,
  imagePlaceholderText,
  imageRefPlaceholder,
  isTerminalStatus,
  noProgressNote,
  planHeading,
  planLines,
  type CardView,
  type Locale,
} from '@progresscard/core/plugin';
import { IMAGE_FALLBACK_FIELD, type FeishuElement } from './payload.js';
import { markdown, panel } from './elements.js';
import { escapeCardMarkdown } from './markdown/index.js';

/** Changed files listed unfolded on the final card; with more, the list folds into a panel. */
const VISIBLE_CHANGED_FILES = 5;

/**
 * The plan checklist (while running and on the final card): a bold heading with `3 / 5` and one
 * line per item, ✅ done, ▶ in progress, ○ pending. Agent text is escaped.
 */
export function planElements(view: CardView, locale: Locale): FeishuElement[] {
  if (!view.plan) return [];
  const lines = planLines(view.plan, locale).map((line) => escapeCardMarkdown(line));
  return [markdown('plan', `**${escapeCardMarkdown(planHeading(view.plan, locale))}**\n${lines.join('\n')}`)];
}

/**
 * The changed-files summary, on the final card only: `**4 files changed**` and one line per file
 * with its line counts; more than {@link VISIBLE_CHANGED_FILES} fold into a panel titled by the heading.
 */
export function changedFilesElements(view: CardView, locale: Locale): FeishuElement[] {
  if (!isTerminalStatus(view.status) || view.changedFiles.length === 0) return [];
  const { heading, items } = changedFilesLines(view.changedFiles, locale, 30);
  const list = items.map((item) => `- ${escapeCardMarkdown(item)}`).join('\n');
  if (view.changedFiles.length <= VISIBLE_CHANGED_FILES) return [markdown('changed_files', `**${escapeCardMarkdown(heading)}**\n${list}`)];
  return [panel('changed_files_panel', heading, [markdown('changed_files', list, { text_size: 'notation' })])];
}

/** The files the run attached: `📎 report.md` (a link when the platform gave one), or why it was not uploaded. */
export function attachmentElements(view: CardView, locale: Locale): FeishuElement[] {
  const files = view.attachments ?? [];
  if (files.length === 0) return [];
  const lines = files.map((file) => `- ${escapeCardMarkdown(attachmentText(file, locale))}`);
  return [markdown('attachments', lines.join('\n'))];
}

/** The liveness note (grey, small) while a running card has had no event for the quiet period. */
export function livenessElements(view: CardView, locale: Locale, timeZone: string | undefined): FeishuElement[] {
  if (view.noProgressSince === undefined) return [];
  return [markdown('liveness', `<font color='grey'>${escapeCardMarkdown(noProgressNote(view.noProgressSince, locale, timeZone))}</font>`, { text_size: 'notation' })];
}

/**
 * The card's images, after the answer: one Card JSON 2.0 `img` component each
 * (https://open.feishu.cn/document/feishu-cards/card-json-v2-components/content-components/image),
 * whose `img_key` is a placeholder the transport replaces with the uploaded `image_key` (or, when
 * the upload failed or Feishu refused the key, the whole component with the image's text, kept in
 * `progresscard_fallback` until then).
 */
export function imageElements(view: CardView, locale: Locale): FeishuElement[] {
  return view.images.map((image, index) => ({
    tag: 'img',
    element_id: `image_${index + 1}`,
    img_key: imageRefPlaceholder(image),
    alt: { tag: 'plain_text', content: image.alt },
    scale_type: 'fit_horizontal',
    preview: true,
    [IMAGE_FALLBACK_FIELD]: imagePlaceholderText(image, locale),
  }));
}
