/**
 * Links in agent text (answer, thinking, tool lines, plan items, errors, the title): only http,
 * https and mailto may be clickable on Feishu, DingTalk and Slack. `javascript:`, `data:`,
 * `vbscript:`, DingTalk's `dtmd://dingtalkclient/sendMessage?content=…` (sends a chat message as the
 * reader) and other action schemes show as plain text. The rendered markdown is read back with a
 * CommonMark + GFM parser (marked, autolinks included), independent of the renderers' own code.
 */
import fc from 'fast-check';
import { marked, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import type { CardView } from '@progresscard/core';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { createSlackRenderer } from '../../plugins/slack/src/render/renderer.js';

const feishuRenderer = feishu({ appId: 'cli_links', appSecret: 'render-only', receiveId: 'oc_links', timeZone: 'UTC' }).renderer;
const dingtalkRenderer = dingtalk({
  appKey: 'dinglinks',
  appSecret: 'render-only',
  cardTemplateId: 'links.schema',
  target: { type: 'group', openConversationId: 'cidLinks==' },
  timeZone: 'UTC',
}).renderer;
const slackRenderer = createSlackRenderer({ timeZone: 'UTC' });

/** Every string under `value` found at a key in `keys` (with the object it sits in). */
function stringsAt(value: unknown, accept: (holder: Record<string, unknown>, key: string) => boolean, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) stringsAt(item, accept, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'string' && accept(value as Record<string, unknown>, key)) out.push(child);
      else stringsAt(child, accept, out);
    }
  }
  return out;
}

/** The markdown and mrkdwn texts each platform will parse, of the main card and its continuations. */
function renderedTexts(view: CardView): Record<'feishu' | 'dingtalk' | 'slack', string[]> {
  const payloads = <T>(renderer: { render(v: CardView): T; renderFallback(v: CardView): T; renderContinuations?(v: CardView): readonly T[] }) => [
    renderer.render(view),
    renderer.renderFallback(view),
    ...(renderer.renderContinuations?.(view) ?? []),
  ];
  return {
    feishu: stringsAt(payloads(feishuRenderer), (holder, key) => key === 'content' && (holder.tag === 'markdown' || holder.tag === 'lark_md')),
    dingtalk: stringsAt(payloads(dingtalkRenderer), () => true),
    slack: stringsAt(payloads(slackRenderer), (holder, key) => key === 'text' && holder.type !== 'plain_text'),
  };
}

/**
 * What a browser makes of an href: tabs and line breaks dropped, the scheme read from the URL; an
 * href that is no URL but starts with an allowed scheme (`https://`) goes nowhere, so it may stay.
 */
function allowedHref(href: string): boolean {
  const cleaned = href.replace(/[\t\n\r]/g, '').trim();
  if (!URL.canParse(cleaned)) return /^(?:https?|mailto):/i.test(cleaned);
  return ['http:', 'https:', 'mailto:'].includes(new URL(cleaned).protocol);
}

/**
 * A bare script, data or chat-client action URL in text, which an autolinker could make clickable (a
 * URL goes on with a URL character: not white space, not a zero-width space).
 */
const BARE_ACTION_URL = /(?<![a-z0-9+.-])(?:javascript|vbscript|data|file|dtmd|dingtalk|lark|feishu|slack):[^\s\u200b]/i;

/** Links in `markdown` whose scheme is not allowed: markdown links, images, definitions, autolinks, bare action URLs. */
function forbiddenLinks(markdown: string): string[] {
  const found: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if ((token.type === 'link' || token.type === 'image' || token.type === 'def') && !allowedHref(token.href)) found.push(`${token.type} ${token.href}`);
    if (token.type === 'html' && /<\s*a[\s>]|href\s*=/i.test(token.raw)) found.push(`html ${token.raw}`);
    if (token.type === 'text' && !('tokens' in token && token.tokens) && BARE_ACTION_URL.test(token.text)) found.push(`bare ${token.text}`);
  });
  return found;
}

/** Slack link markup `<url|label>` / `<url>` (all `<` of agent text are escaped, so none may remain). */
function slackLinkMarkup(mrkdwn: string): string[] {
  return [...mrkdwn.matchAll(/<([^<>|]+)(?:\|[^<>]*)?>/g)].map((match) => match[1]!);
}

function linksIn(view: CardView): Record<'feishu' | 'dingtalk' | 'slack', string[]> {
  const texts = renderedTexts(view);
  return {
    feishu: texts.feishu.flatMap(forbiddenLinks),
    dingtalk: texts.dingtalk.flatMap(forbiddenLinks),
    slack: texts.slack.flatMap((text) => [...forbiddenLinks(text), ...slackLinkMarkup(text)]),
  };
}

/** A card whose every agent text holds `text`: running (thinking shown) and final (failed, with an error). */
function views(text: string): CardView[] {
  const start: ScriptedEvent[] = [
    { type: 'run.started', at: 0, title: `T ${text}`, locale: 'en' },
    { type: 'plan.updated', at: 100, items: [{ text: `plan ${text}`, status: 'in_progress' }] },
    { type: 'tool.started', at: 200, callId: 'c1', name: 'shell', args: JSON.stringify({ command: `echo ${text}` }) },
    { type: 'thinking.delta', at: 300, text: `thinking ${text}` },
  ] as ScriptedEvent[];
  const answered: ScriptedEvent[] = [...start, { type: 'answer.delta', at: 400, text: `answer ${text}` } as ScriptedEvent];
  return [
    viewAfterEvents(start),
    viewAfterEvents(answered),
    viewAfterEvents([...answered, { type: 'run.failed', at: 500, error: `error ${text}` } as ScriptedEvent]),
  ];
}

const DTMD = 'dtmd://dingtalkclient/sendMessage?content=%E8%BD%AC%E8%B4%A6';

describe('links in agent text', () => {
  const examples: [string, string][] = [
    ['a markdown link to javascript:', '[Click me](javascript:alert(document.cookie))'],
    ['a DingTalk action link that sends a message as the reader', `[查看详情](${DTMD})`],
    ['a data: image', '![x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['a vbscript: link with an entity-encoded scheme', '[x](vb&#115;cript:msgbox(1))'],
    ['a reference-style link', '[open][r]\n\n[r]: javascript:alert(1)'],
    ['an autolink and a bare action URL', `<javascript:alert(1)> and ${DTMD} and lark://applink.feishu.cn/client/chat/open`],
    ['a link with a tab inside its scheme', '[x](<java\tscript:alert(1)>)'],
    ['a link in a code span (DingTalk shows code spans as text)', '`[x](javascript:alert(1))`'],
  ];
  for (const [name, text] of examples) {
    it(`${name}: plain text on every platform, its label kept`, () => {
      for (const view of views(text)) expect(linksIn(view)).toEqual({ feishu: [], dingtalk: [], slack: [] });
      const answer = renderedTexts(views(text)[2]!);
      if (text.startsWith('[查看详情]')) for (const texts of Object.values(answer)) expect(texts.join('\n')).toContain('查看详情');
    });
  }

  it('http, https and mailto links stay links', () => {
    const view = views('[docs](https://open.feishu.cn/document) [mail](mailto:ops@example.com) [old](http://example.com/a_(b))')[2]!;
    const texts = renderedTexts(view);
    for (const platform of ['feishu', 'dingtalk'] as const) {
      const hrefs: string[] = [];
      for (const markdown of texts[platform]) marked.walkTokens(marked.lexer(markdown), (token) => void (token.type === 'link' && hrefs.push(token.href)));
      expect(hrefs, platform).toEqual(expect.arrayContaining(['https://open.feishu.cn/document', 'mailto:ops@example.com', 'http://example.com/a_(b)']));
    }
    // Slack's mrkdwn has no [label](url): the URLs stay in the text, where Slack links them.
    expect(texts.slack.join('\n')).toContain('https://open.feishu.cn/document');
  });

  it('no rendered output holds a link with a scheme other than http, https or mailto (random agent text)', () => {
    const piece = fc.oneof(
      fc.constantFrom('[', ']', '](', '(', ')', '<', '>', '`', '```\n', '\n', '\n\n', '!', '\\', ':', '//', ' ', '\t', '"', '*', '|', '#', '&#106;', '&colon;', '&#x3A;', '\u200b'),
      fc.constantFrom('javascript', 'JaVaScRiPt', 'vbscript', 'data', 'dtmd', 'lark', 'dingtalk', 'slack', 'file', 'http', 'https', 'mailto', 'ftp'),
      fc.constantFrom('alert(1)', 'dingtalkclient/sendMessage?content=hi', 'example.com', 'label', 'r'),
      fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('javascript:', 'dtmd://', 'data:', 'vbscript:', 'https://', 'mailto:', 'lark://', ''), fc.string({ maxLength: 8 })).map(([label, scheme, rest]) => `[${label}](${scheme}${rest})`),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join('')), (text) => {
        for (const view of views(text)) expect(linksIn(view)).toEqual({ feishu: [], dingtalk: [], slack: [] });
      }),
      // A fixed seed keeps CI deterministic; PROPERTY_SEED (and LINK_RUNS) explore others.
      { numRuns: Number(process.env.LINK_RUNS ?? 500), seed: Number(process.env.PROPERTY_SEED ?? 20261130) },
    );
  }, 120_000);
});
