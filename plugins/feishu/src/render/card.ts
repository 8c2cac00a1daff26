import { answerCharsNotHeld, boundAnswer, isTerminalStatus, noticeText, oneLine, thinkingHeading, type CardView, type FooterField, type FooterStyle, type Locale } from '@progresscard/core/plugin';
import type { FeishuCard, FeishuElement } from './payload.js';
import { FEISHU_GUARD_LIMITS, fitText, prepareAgentMarkdown, type GuardLimits } from './guards.js';
import { escapeCardMarkdown, type Truncated } from './markdown/index.js';
import { renderContinuation } from './continuation.js';
import { answerElements } from './answer-elements.js';
import { controlElements, decisionElements, type ControlStyle } from './controls.js';
import { footerElements, markdown, panel, tail, toolElements } from './elements.js';
import { attachmentElements, changedFilesElements, imageElements, livenessElements, planElements } from './sections.js';
import { CARD_TEXTS, STATUS_TEMPLATE, statusLine, type CardTexts } from './texts.js';

/** How the card is drawn. */
export interface CardRenderOptions {
  /** Forces the card language; default: the view's locale (zh-CN unless the run said otherwise). */
  readonly locale?: Locale;
  readonly footerStyle: FooterStyle;
  /** Footer parts shown (default: all the style shows). */
  readonly footerFields?: readonly FooterField[];
  /** Tool calls shown before older ones fold into a panel (default 3). */
  readonly toolFoldAfter?: number;
  /** IANA zone of the footer's sent-at time; default the process's. */
  readonly timeZone?: string;
  /** What happens to an answer too long for one card: follow-up cards (default) or only a notice. */
  readonly overflow: 'follow-up' | 'truncate';
  /** Follow-up cards at most (default 4). */
  readonly maxContinuationCards?: number;
  readonly limits?: GuardLimits;
  /** How open questions are drawn (default `text`: the reply to type; `buttons` needs card callbacks). */
  readonly controls?: ControlStyle;
}

/** Thinking text kept on the card (its tail), in characters. */
const MAX_THINKING_CHARS = 3000;
/** Prompt / error / reason text kept, in characters. */
const MAX_SIDE_TEXT_CHARS = 2000;
const MAX_TITLE_CHARS = 100;

/** Degradation steps when even an empty answer does not fit: 0 full, 1 no thinking, 2 also compact tools. */
type Level = 0 | 1 | 2;

/** Everything on the card except the answer, prepared once per render. */
interface Parts {
  readonly view: CardView;
  readonly texts: CardTexts;
  readonly locale: Locale;
  readonly title: string;
  readonly subtitle: string;
  readonly thinking: string;
  readonly options: CardRenderOptions;
}

function build(p: Parts, answer: string, notice: string | undefined, level: Level): FeishuCard {
  const { view, texts } = p;
  const running = !isTerminalStatus(view.status);
  const elements: FeishuElement[] = [];
  if (p.thinking && level === 0) {
    const thinking = markdown('thinking', p.thinking, { text_size: 'notation' });
    // A native fold (Card JSON 2.0 collapsible_panel) headed with the thinking time: open while the
    // agent is still thinking, folded once an answer exists or the run ended; the reader can open it.
    const open = running && (view.thinkingNow === true || answer === '');
    elements.push(panel('thinking_panel', thinkingHeading(view, p.locale), [thinking], { expanded: open }));
  }
  elements.push(...decisionElements(view));
  if (view.status === 'waiting' && view.waitingFor)
    elements.push(markdown('waiting', `**${texts.waitingLabel}**${texts.colon}${escapeCardMarkdown(oneLine(view.waitingFor, MAX_SIDE_TEXT_CHARS))}`));
  if (view.notice && level === 0) {
    elements.push(markdown('liveness', `<font color='grey'>${escapeCardMarkdown(noticeText(view.notice, p.locale, p.options.timeZone))}</font>`, { text_size: 'notation' }));
  }
  const controls = controlElements(view, p.options.controls ?? 'text');
  if (answer) elements.push(...answerElements(answer));
  elements.push(...imageElements(view, p.locale));
  if (notice) elements.push(markdown('answer_notice', `<font color='grey'>${notice}</font>`, { text_size: 'notation' }));
  if (view.error && (view.status === 'failed' || view.status === 'cancelled')) {
    const label = view.status === 'failed' ? texts.failedLabel : texts.cancelledLabel;
    elements.push(markdown('error', `**${label}**${texts.colon}${escapeCardMarkdown(oneLine(view.error, MAX_SIDE_TEXT_CHARS))}`));
  }
  if (elements.length === 0 || (elements.length === 1 && elements[0]!.element_id === 'thinking_panel' && elements[0]!.expanded !== true)) {
    elements.push(markdown('placeholder', running ? texts.thinkingNow : texts.noAnswer));
  }
  elements.push(...controls);
  elements.push(...livenessElements(view, p.locale, p.options.timeZone));
  const plan = planElements(view, p.locale);
  if (plan.length > 0) elements.push({ tag: 'hr', element_id: 'plan_divider' }, ...plan);
  elements.push(...changedFilesElements(view, p.locale));
  elements.push(...attachmentElements(view, p.locale));
  elements.push(...toolElements(view, texts, level === 2, p.options.toolFoldAfter));
  elements.push(...footerElements(view, { style: p.options.footerStyle, fields: p.options.footerFields, timeZone: p.options.timeZone }, p.locale));
  return {
    schema: '2.0',
    config: {
      update_multi: true,
      summary: { content: `${p.locale === 'zh-CN' ? `【${texts.status[view.status]}】` : `[${texts.status[view.status]}] `}${oneLine(p.title, 60)}` },
      width_mode: 'fill',
    },
    header: {
      title: { tag: 'plain_text', content: p.title },
      subtitle: { tag: 'plain_text', content: p.subtitle },
      template: STATUS_TEMPLATE[view.status],
    },
    body: { elements },
  };
}

/**
 * Lines of the answer the card and its follow-up cards hold at most (the notice counts the rest): the
 * escaping, table and fitting passes cost per line, and an answer of thousands of tiny tables or short
 * code lines has a line break every few characters; at ordinary line lengths the byte limits cut
 * first. Keeps one render within ~50 ms (issue 30; figures in `npm run bench:render`).
 */
const MAX_ANSWER_LINES = 4_000;

/** A rendered card and, for a terminal card whose answer did not fit, the follow-up cards (parts 2..n). */
export interface CardLayout {
  readonly card: FeishuCard;
  readonly continuations: readonly FeishuCard[];
}

/**
 * Draws a {@link CardView} as a Card JSON 2.0 card that passes Feishu's checks: header title,
 * status subtitle and colour; thinking (folded once an answer exists); the answer and its images; the liveness note;
 * the plan checklist; the changed files (final card); tools; footer.
 * Agent text is escaped (no live `<at>` or other tags), at most 3 markdown tables, and the card is
 * cut to 28 KB keeping markdown valid with a notice saying so. On a terminal card whose answer
 * did not fit, the rest goes into `continuations` (unless `overflow` is `truncate`); the main
 * card's notice counts them. Pure: equal views and options give equal layouts.
 */
export function layoutCard(view: CardView, options: CardRenderOptions): CardLayout {
  const locale = options.locale ?? view.locale;
  const texts = CARD_TEXTS[locale];
  const limits = options.limits ?? FEISHU_GUARD_LIMITS;
  const terminal = isTerminalStatus(view.status);
  const followUp = terminal && options.overflow === 'follow-up';
  const maxContinuations = options.maxContinuationCards ?? 4;
  // Only the start of the answer the cards can hold is prepared and measured: every character of it takes
  // at least a byte of a card, so the cards never hold more than their byte limits in characters. The rest
  // is only counted (a 200 000-character answer once took half a second to render, issue 30).
  // (cut at a line break, an open code fence closed; what is left out counts the whole answer the agent wrote)
  const window = boundAnswer(view, limits.maxContentBytes * (followUp ? 1 + maxContinuations : 1), { maxLines: MAX_ANSWER_LINES });
  const answer = prepareAgentMarkdown(window.answer, limits.maxTables);
  const leftOver = answerCharsNotHeld(window);
  const thinking = prepareAgentMarkdown(tail(view.thinking, MAX_THINKING_CHARS), limits.maxTables - answer.tables);
  const parts: Parts = {
    view,
    texts,
    locale,
    title: oneLine(view.title.trim() || texts.defaultTitle, MAX_TITLE_CHARS),
    subtitle: statusLine(view.status, view.round, texts),
    thinking: thinking.text,
    options,
  };
  const total = answer.text.length + leftOver;
  // Sized with the longest notice, so the real (shorter or equal) one fits too.
  const longestNotice = terminal ? texts.truncated(total, total, followUp ? 9 : 0) : texts.truncatedRunning(total, total);
  for (const level of [0, 1, 2] as const) {
    const fitted = fitText(answer.text, (cut) => build(parts, cut ? cut.text : answer.text, cut ? longestNotice : undefined, level), limits);
    if (!fitted) continue;
    if (!fitted.cut && leftOver === 0) return { card: fitted.card, continuations: [] };
    const cut = fitted.cut ?? { text: answer.text, consumed: answer.text.length, truncated: true };
    return finish(parts, answer.text, cut, level, followUp, limits, leftOver);
  }
  // Unreachable with the bounded parts above; keep the promise of a valid card anyway.
  return { card: build({ ...parts, thinking: '' }, '', texts.truncated(0, total, 0), 2), continuations: [] };
}

/** The main card of {@link layoutCard}. */
export function renderCard(view: CardView, options: CardRenderOptions): FeishuCard {
  return layoutCard(view, options).card;
}

function finish(p: Parts, answer: string, cut: Truncated, level: Level, followUp: boolean, limits: GuardLimits, leftOver: number): CardLayout {
  const { texts } = p;
  const terminal = isTerminalStatus(p.view.status);
  const shown = cut.consumed;
  const continuation = followUp
    ? renderContinuation(answer, cut, { title: p.title, texts, max: p.options.maxContinuationCards ?? 4, limits, leftOver })
    : [];
  const total = answer.length + leftOver;
  const notice = terminal ? texts.truncated(shown, total, continuation.length) : texts.truncatedRunning(shown, total);
  return { card: build(p, cut.text, notice, level), continuations: continuation };
}
