/**
 * Telegram over its emulator (real loopback HTTP): a file the agent attached is sent as a document
 * (sendDocument, multipart) replying to the card in its forum topic, and the final card names it;
 * a file outside `fileRoots` is never read and the card says why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';
import { temporaryFolders } from '@progresscard/core/testing';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
const folders = temporaryFolders('progresscard-telegram-files');
const folder = () => folders.make();
afterEach(async () => {
  await h?.close();
  h = undefined;
  folders.removeAll();
});

describe('Telegram: files the agent produced', () => {
  it('sends the report as a document replying to the card in its topic, and the final card names it', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'report.md'), '# Weekly report\n\nAll green.\n');
    const outside = join(folder(), 'id_rsa.txt');
    writeFileSync(outside, 'not for the chat');
    h = await harness({ plugin: { fileRoots: [dir] } });
    const card = h.cards.open('telegram');
    card.start({ title: 'Weekly report' });
    await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
    card.attach(join(dir, 'report.md'));
    card.attach(outside);
    card.complete('The report is attached.');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const documents = h.emulator.messages({ chatId: DEFAULT_TELEGRAM_BOT.groupChat }).filter((m) => m.document);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ replyTo: Number(final.message!.id), threadId: DEFAULT_TELEGRAM_BOT.topic, document: { fileName: 'report.md' } });
    expect(Buffer.from(documents[0]!.document!.bytes).toString()).toContain('All green.');
    const shown = h.emulator.message(DEFAULT_TELEGRAM_BOT.groupChat, Number(final.message!.id))!.text;
    expect(shown).toContain('📎 report.md');
    expect(shown).not.toContain('report.md (not uploaded');
    expect(shown).toContain('📎 id_rsa.txt (not uploaded: outside the allowed folders, or not found)');
  });

  it("three files attached as a private-chat run ends all arrive, though its chat's 1-a-second window answers one of them 429", { timeout: 90_000 }, async () => {
    const dir = folder();
    for (let i = 0; i < 3; i += 1) writeFileSync(join(dir, `f${i}.txt`), `file ${i}`);
    h = await harness({ plugin: { fileRoots: [dir], chatId: DEFAULT_TELEGRAM_BOT.privateChat, threadId: undefined } as never });
    // the second document meets the chat's window, as it does next to the card's own edits
    h.emulator.faults.add({ route: 'sendDocument', nth: 2, respond: { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } } } });
    const card = h.cards.open('telegram');
    card.start({ title: 'Files' });
    await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
    for (let i = 0; i < 3; i += 1) card.attach(join(dir, `f${i}.txt`));
    card.complete('FINAL');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const documents = h.emulator.messages({ chatId: DEFAULT_TELEGRAM_BOT.privateChat }).filter((m) => m.document);
    expect(documents.map((m) => m.document!.fileName).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(h.emulator.calls({ route: 'sendDocument' }).filter((call) => call.status === 429).length).toBeGreaterThanOrEqual(1);
    const shown = h.emulator.message(DEFAULT_TELEGRAM_BOT.privateChat, Number(final.message!.id))!.text;
    expect(shown).not.toContain('not uploaded');
  });
});
