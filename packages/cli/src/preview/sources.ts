import type { DingTalkEmulatorCore, FeishuEmulatorCore } from '@progresscard/emulator';
import { countCalls, MAX_PREVIEW_CALLS, type PanelSnapshot, type PreviewCall, type PreviewCard, type PreviewSource } from './model.js';
import { renderDingTalkCard } from './render-dingtalk.js';
import { feishuTemplate, renderFeishuMessage } from './render-feishu.js';

/**
 * Preview sources that read what an emulator *accepted* (its read-back), so the page shows what a
 * chat user would see, plus every call with its answer for the timeline.
 */

/** Feishu rate-limit answers: 99991400 (gateway, HTTP 429) and 230020 (per message / per chat). */
const FEISHU_RATE_LIMIT_CODES = new Set([99991400, 230020]);

/** Memoizes rendered HTML per id and version, so polling does not re-render unchanged cards. */
class HtmlCache {
  private readonly entries = new Map<string, { version: string; html: string }>();
  get(id: string, version: string, render: () => string): string {
    const hit = this.entries.get(id);
    if (hit && hit.version === version) return hit.html;
    const html = render();
    this.entries.set(id, { version, html });
    return html;
  }
}

/** The Feishu emulator as a preview panel. */
export function feishuPreviewSource(emulator: FeishuEmulatorCore & { baseUrl?: string }, label = 'Feishu / Lark'): PreviewSource {
  const cache = new HtmlCache();
  return {
    id: 'feishu',
    label,
    subscribe: (listener) => emulator.onChange(() => listener()),
    counts: () => countCalls(calls()),
    snapshot(): PanelSnapshot {
      const cards: PreviewCard[] = emulator.messages().map((m) => ({
        id: m.messageId,
        html: cache.get(m.messageId, `${m.updatedAt}:${m.updates}:${m.state}`, () => renderFeishuMessage(m.msgType, m.content, m.card)),
        state: m.state === 'live' ? feishuTemplate(m.card) : m.state,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
        version: m.updates + 1,
      }));
      const all = calls();
      return { id: 'feishu', label, baseUrl: emulator.baseUrl, cards, calls: all.slice(-MAX_PREVIEW_CALLS), counts: countCalls(all) };
    },
  };
  function calls(): PreviewCall[] {
    return emulator
      .calls()
      .filter((c) => !c.route.startsWith('auth.'))
      .map((c) => ({
        seq: c.seq,
        at: c.at,
        route: c.route,
        outcome: c.outcome,
        status: c.status,
        code: c.outcome === 'rejected' ? c.code : undefined,
        msg: c.outcome === 'rejected' ? c.msg : undefined,
        key: c.key,
        rateLimited: c.status === 429 || FEISHU_RATE_LIMIT_CODES.has(c.code),
      }));
  }
}

/** True for DingTalk's throttling answers (HTTP 429, `…QpsLimit…`, `…Throttl…`). */
function dingTalkRateLimited(status: number, code: string | undefined): boolean {
  return status === 429 || /qps|throttl|ratelimit|frequency/i.test(code ?? '');
}

/** The DingTalk emulator as a preview panel. */
export function dingTalkPreviewSource(emulator: DingTalkEmulatorCore & { baseUrl?: string }, label = 'DingTalk'): PreviewSource {
  const cache = new HtmlCache();
  return {
    id: 'dingtalk',
    label,
    subscribe: (listener) => emulator.onChange(() => listener()),
    counts: () => countCalls(calls()),
    snapshot(): PanelSnapshot {
      const cards: PreviewCard[] = emulator.cards().map((c) => ({
        id: c.outTrackId,
        html: cache.get(c.outTrackId, `${c.version}:${c.state}`, () => renderDingTalkCard(c.cardData, c.state)),
        state: c.state,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        version: c.version,
      }));
      const all = calls();
      return { id: 'dingtalk', label, baseUrl: emulator.baseUrl, cards, calls: all.slice(-MAX_PREVIEW_CALLS), counts: countCalls(all) };
    },
  };
  function calls(): PreviewCall[] {
    return emulator
      .calls()
      .filter((c) => !c.route.startsWith('oauth2.'))
      .map((c) => ({
        seq: c.seq,
        at: c.at,
        route: c.route,
        outcome: c.outcome,
        status: c.status,
        code: c.code,
        key: c.key,
        rateLimited: dingTalkRateLimited(c.status, c.code),
      }));
  }
}
