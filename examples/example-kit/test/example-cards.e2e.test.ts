import { afterEach, describe, expect, it, vi } from 'vitest';
import { exampleCards } from '../src/example-cards.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The preview page's cards as its state endpoint shows them. */
async function previewCards(previewUrl: string): Promise<{ id: string; html: string }[]> {
  const state = (await (await fetch(new URL('/api/state', previewUrl))).json()) as { panels: { cards: { id: string; html: string }[] }[] };
  return state.panels.flatMap((panel) => panel.cards);
}

describe('exampleCards (what the SDK examples share)', () => {
  it('without FEISHU_* variables: a button clicked in the printed preview page answers the run, and finish prints the final card', async () => {
    for (const name of ['FEISHU_APP_ID', 'FEISHU_APP_SECRET', 'FEISHU_CHAT_ID']) vi.stubEnv(name, '');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    const warned: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warned.push(String(line)));

    const example = await exampleCards();
    const previewUrl = /open (http:\/\/\S+) to see the card/.exec(printed.join('\n'))?.[1];
    expect(previewUrl, printed.join('\n')).toBeDefined();

    const card = example.open('Plan the trip');
    const answer = card.ask({ prompt: 'Which city?', choices: ['Paris', 'Rome'], timeoutMs: 15_000 });
    // the wait counts down in the terminal while the question is open (fake time for the countdown only)
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    example.announceApprovalWait(card, 60_000);
    vi.advanceTimersByTime(30_000);
    vi.useRealTimers();
    expect(printed.filter((line) => line.includes('still waiting for a click'))).toEqual(['  still waiting for a click: 45 s left', '  still waiting for a click: 30 s left']);
    const withButtons = async () => (await previewCards(previewUrl!)).find((c) => c.html.includes('data-button="Rome"'));
    await expect.poll(withButtons, { timeout: 10_000 }).toBeDefined();
    const shown = (await withButtons())!;
    const click = await fetch(new URL('/api/click', previewUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ panel: 'feishu', card: shown.id, button: 'Rome' }) });
    expect(await click.json()).toMatchObject({ ok: true });
    expect(await answer).toMatchObject({ text: 'Rome', timedOut: false });
    // The emulator's callbacks carry the verification token the emulated channel checks: no warning
    // that anyone could click (that warning is for a real Feishu app without a token).
    expect(warned.filter((line) => line.includes('without verification'))).toEqual([]);

    card.complete('Rome it is.');
    await example.finish(card);
    expect(printed).toContain('final card: completed');
    expect(printed).toContain('answer: Rome it is.');
    // finish stopped the preview page (and the emulator behind it).
    await expect(fetch(new URL('/api/state', previewUrl))).rejects.toThrow();
  });
});
