/**
 * Discord over its emulator (real loopback HTTP): a file the agent attached is sent as a message with
 * an attachment (multipart `payload_json` + `files[0]`) replying to the card, and the final card
 * links it; a file over Discord's 10 MiB default is not sent and the card says why; a card that
 * later messages pushed up the channel gets the completion ping (GET messages `after` the card).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DISCORD_APP } from '@progresscard/emulator';
import { temporaryFolders } from '@progresscard/core/testing';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
const folders = temporaryFolders('progresscard-discord-files');
const folder = () => folders.make();
afterEach(async () => {
  await h?.close();
  h = undefined;
  folders.removeAll();
});

describe('Discord: files the agent produced', () => {
  it('sends the report as an attachment replying to the card, and the final card links it', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'report.md'), '# Weekly report\n\nAll green.\n');
    h = await harness({ plugin: { fileRoots: [dir] } });
    const card = h.cards.open('discord');
    card.start({ title: 'Weekly report' });
    await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
    card.attach(join(dir, 'report.md'));
    card.complete('The report is attached.');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const withFile = h.emulator.messages({ replyTo: final.message!.id }).filter((m) => (m.attachments ?? []).length > 0);
    expect(withFile).toHaveLength(1);
    const file = withFile[0]!.attachments![0]!;
    expect(file.filename).toBe('report.md');
    expect(Buffer.from(file.bytes).toString()).toContain('All green.');
    const shown = JSON.stringify(h.emulator.message(final.message!.id)!.embeds);
    expect(shown).toContain(`[📎 report.md](${file.url})`);
    expect(shown).not.toContain('not uploaded');
  });

  it('a file over 10 MiB is not sent: the final card names it with the reason', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'dump.bin'), Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    h = await harness({ plugin: { fileRoots: [dir] } });
    const card = h.cards.open('discord');
    card.start({ title: 'Dump' });
    card.attach(join(dir, 'dump.bin'));
    card.complete('Done.');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.messages().filter((m) => (m.attachments ?? []).length > 0)).toEqual([]);
    // Markdown-escaped as every agent text on the card.
    expect((h.emulator.message(final.message!.id)!.embeds[0] as { description: string }).description).toContain('📎 dump.bin \\(not uploaded: larger than 10 MB\\)');
  });
});

describe('Discord: completion ping for a card pushed up the channel', () => {
  it('replies to the card once 3 messages came after it, and not when fewer did', { timeout: 60_000 }, async () => {
    h = await harness();
    const run = async (chatter: number) => {
      const card = h!.cards.open('discord', undefined, { requester: { id: '1250000000000000901' } });
      card.start({ title: 'Fix the flaky test' });
      await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
      for (let i = 0; i < chatter; i++) h!.emulator.postUserMessage(DEFAULT_DISCORD_APP.channel, `lunch? ${i}`);
      card.complete('All tests pass.');
      const final = await card.finalDelivery;
      expect(final).toMatchObject({ ok: true, status: 'completed' });
      return final.message!.id;
    };
    const pushedUp = await run(3);
    const inView = await run(1);
    await h.cards.shutdown();
    const pings = (id: string) => h!.emulator.messages({ replyTo: id }).filter((m) => m.content.includes('Completed'));
    expect(pings(pushedUp)).toHaveLength(1);
    expect(pings(pushedUp)[0]!.content).toMatch(/^<@1250000000000000901> ✅ Completed in \d+s: Fix the flaky test$/);
    expect(pings(inView)).toEqual([]);
  });
});
