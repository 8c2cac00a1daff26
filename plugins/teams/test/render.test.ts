import { viewAfterEvents } from '@progresscard/core/testing';
import { describe, expect, it } from 'vitest';
import { splitAnswer } from '../src/render/answer-parts.js';
import { teamsActivityProblems } from '../src/render/guards.js';
import { activityOf, type AdaptiveCard } from '../src/render/payload.js';
import { createTeamsRenderer } from '../src/render/renderer.js';

/** Every text of a card, one per TextBlock, and its buttons. */
const texts = (card: AdaptiveCard | undefined) => (card?.body ?? []).flatMap((element) => (element.type === 'TextBlock' ? [element.text] : []));

describe('Teams Adaptive Card', () => {
  const running = viewAfterEvents(
    [
      { type: 'run.started', title: 'Fix the parser' },
      { type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}', at: 0 },
      { type: 'answer.delta', text: 'Looking at [the docs](javascript:alert(1)) and [the PR](https://example.com/pr/1).', at: 1000 },
    ],
    { lookAtMs: 42_000, locale: 'en' },
  );

  it('shows status, title, the tool line with its elapsed time, the answer with only http(s) links, and the footer', () => {
    const { card, summary } = createTeamsRenderer({ locale: 'en' }).render(running);
    const shown = texts(card);
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    expect(shown[0]).toBe('⏳ **Running** · Fix the parser');
    expect(shown.join('\n')).toContain('• shell: `npm test` (running · 42s)');
    const answer = shown.find((t) => t.includes('Looking at'))!;
    expect(answer).not.toContain('javascript:');
    expect(answer).toContain('[the PR](https://example.com/pr/1)');
    expect(summary).toBe('Running · Fix the parser');
  });

  it('draws the open question as Action.Execute buttons carrying the card id, and Stop; with text controls, the reply to type', () => {
    const view = { ...running, status: 'waiting' as const, waitingFor: 'Publish?', controls: { cardId: 'card-7', stop: true, pending: { id: 'q1', prompt: 'Publish?', options: [{ id: 'approve', label: 'Approve' }, { id: 'deny', label: 'Deny' }], freeText: false, code: '3F2A' } } };
    const { card } = createTeamsRenderer({ locale: 'en', controls: 'buttons' }).render(view);
    expect(card!.actions).toEqual([
      { type: 'Action.Execute', title: 'Approve', verb: 'progresscard.choice', data: { cardId: 'card-7', interactionId: 'q1', optionId: 'approve' }, style: 'positive' },
      { type: 'Action.Execute', title: 'Deny', verb: 'progresscard.choice', data: { cardId: 'card-7', interactionId: 'q1', optionId: 'deny' }, style: 'destructive' },
      { type: 'Action.Execute', title: 'Stop', verb: 'progresscard.stop', data: { cardId: 'card-7', interactionId: 'stop' }, style: 'destructive' },
    ]);
    const byText = createTeamsRenderer({ locale: 'en', controls: 'text' }).render(view).card!;
    expect(byText.actions).toBeUndefined();
    expect(texts(byText).join('\n')).toContain('`/approve 3F2A` (Approve)');
  });

  it('a long answer continues in reply messages: every activity under the size limit, nothing lost, code fences closed and reopened', () => {
    const code = Array.from({ length: 400 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    const answer = `Intro.\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${'Prose after the code. '.repeat(600)}END-OF-ANSWER`;
    const view = viewAfterEvents([{ type: 'run.started', title: 'Report' }, { type: 'run.completed', answer }], { locale: 'en' });
    const renderer = createTeamsRenderer({ locale: 'en' });
    const main = renderer.render(view);
    const parts = renderer.renderContinuations!(view);
    expect(parts.length).toBeGreaterThan(1);
    for (const message of [main, ...parts]) expect(teamsActivityProblems(activityOf(message))).toEqual([]);
    const all = [texts(main.card).join('\n'), ...parts.map((p) => p.text)].join('\n');
    expect(all).toContain('const value399 = compute(399);');
    expect(all).toContain('END-OF-ANSWER');
    for (const text of [...texts(main.card), ...parts.map((p) => p.text ?? '')]) expect((text.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it('splits at paragraph ends and says how much was left out past the last part', () => {
    const shares = splitAnswer(`${'a'.repeat(50)}\n\n${'b'.repeat(50)}\n\n${'c'.repeat(50)}`, 60, 60, 1);
    expect(shares).toEqual({ card: 'a'.repeat(50), parts: ['b'.repeat(50)], leftOut: 50 });
  });

  it('a 1:1 stream shows the latest tool call as its informative line (≤ 1000 characters) and the card without the answer under the final', () => {
    const renderer = createTeamsRenderer({ locale: 'en' });
    expect(renderer.informative(running)).toMatch(/^Running · Fix the parser · .*npm test/);
    const done = viewAfterEvents([{ type: 'run.started', title: 'Fix' }, { type: 'run.completed', answer: 'THE ANSWER' }], { locale: 'en' });
    const under = texts(renderer.streamCard(done, 'final')).join('\n');
    expect(under).toContain('✅ **Completed** · Fix');
    expect(under).not.toContain('THE ANSWER');
  });
});
