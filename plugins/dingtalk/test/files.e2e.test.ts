/**
 * DingTalk over its emulator (real loopback HTTP): a file the agent attached is uploaded to the
 * old-style media API (multipart `media`, token from `gettoken`) and sent by the robot as a
 * `sampleFile` message into the card's conversation, and the final card names it; a file the upload
 * refuses as too large, or one over the plugin's 20 MB limit, is named as not uploaded with the
 * reason; a file outside `fileRoots` is never read.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import type { DingTalkEmulator, DingTalkEmulatorOptions } from '@progresscard/emulator';
import { DINGTALK_MAX_FILE_BYTES, type DingTalkConfigInput } from '../src/index.js';
import { GROUP, setup } from './helpers.js';

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'progresscard-dingtalk-files-'));
  dirs.push(dir);
  return dir;
}

async function start(config: Partial<DingTalkConfigInput>, emulatorOptions: DingTalkEmulatorOptions = {}) {
  const s = await setup(config, emulatorOptions);
  emulator = s.emulator;
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger, env: {} });
  return { emulator: s.emulator, cards };
}

describe('DingTalk: files the agent produced', () => {
  it('sends the report as a file message into the card\'s group, the final card names it, and a file outside fileRoots is not read', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'report.PDF'), '%PDF-1.4 weekly report, all green\n');
    const outside = join(folder(), 'id_rsa.txt');
    writeFileSync(outside, 'not for the chat');
    const { emulator, cards } = await start({ fileRoots: [dir] });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Weekly report', locale: 'en' });
    card.attach(join(dir, 'report.PDF'));
    card.attach(outside);
    card.complete('The report is attached.');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });

    const files = emulator.robotMessages().filter((m) => m.msgKey === 'sampleFile');
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ openConversationId: GROUP.openConversationId, msgParam: { fileName: 'report.PDF', fileType: 'pdf' } });
    const media = emulator.mediaFiles();
    expect(media.map((m) => m.mediaId)).toEqual([files[0]!.msgParam.mediaId]);
    expect(Buffer.from(media[0]!.bytes).toString()).toContain('all green');
    expect(media[0]).toMatchObject({ type: 'file', fileName: 'report.PDF' });

    const shown = emulator.cards()[0]!.cardData.msgContent ?? '';
    expect(shown).toContain('📎 report.PDF');
    expect(shown).not.toContain('report.PDF (not uploaded');
    expect(shown).toContain('📎 id_rsa.txt (not uploaded: outside the allowed folders, or not found)');
  });

  it('a file the upload refuses as too large, and one over 20 MB, are named as not uploaded with the reason; no file message is sent', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'chart.png'), Buffer.alloc(4096, 7));
    // Sparse: 20 MB + 1 byte without writing them.
    writeFileSync(join(dir, 'dump.bin'), '');
    truncateSync(join(dir, 'dump.bin'), DINGTALK_MAX_FILE_BYTES + 1);
    const { emulator, cards } = await start({ fileRoots: [dir] }, { maxMediaBytes: 1024 });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Charts', locale: 'en' });
    card.attach(join(dir, 'chart.png'));
    card.attach(join(dir, 'dump.bin'));
    card.complete('Done.');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });

    expect(emulator.robotMessages().filter((m) => m.msgKey === 'sampleFile')).toEqual([]);
    expect(emulator.mediaFiles()).toEqual([]);
    const shown = emulator.cards()[0]!.cardData.msgContent ?? '';
    expect(shown).toContain('📎 chart.png (not uploaded: dingtalk mediaUpload: HTTP 200 errcode 40006');
    expect(shown).toContain('📎 dump.bin (not uploaded: larger than 20 MB)');
  });

  it('a 1:1 card gets its file in the robot\'s chat with the user; without fileRoots nothing is read', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'notes.md'), '# notes\n');
    const { emulator, cards } = await start({ fileRoots: [dir] });
    const card = cards.open('dingtalk', { type: 'user', userId: 'manager4220' }, { locale: 'en' });
    card.start({ title: 'Notes', locale: 'en' });
    card.attach(join(dir, 'notes.md'));
    card.complete('Here.');
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    const [file] = emulator.robotMessages().filter((m) => m.msgKey === 'sampleFile');
    expect(file).toMatchObject({ userIds: ['manager4220'], msgParam: { fileName: 'notes.md', fileType: 'md' } });

    await cards.shutdown();
    await emulator.close();
    const unset = await start({});
    const other = unset.cards.open('dingtalk', undefined, { locale: 'en' });
    other.start({ title: 'Notes', locale: 'en' });
    other.attach(join(dir, 'notes.md'));
    other.complete('Here.');
    await other.finalDelivery;
    expect(unset.emulator.mediaFiles()).toEqual([]);
    expect(unset.emulator.cards()[0]!.cardData.msgContent).toContain('📎 notes.md (not uploaded: no folder is allowed for uploads (fileRoots not set))');
  });
});

describe('DingTalk: files after the tokens were revoked', () => {
  it('fetches new tokens for the upload (errcode 40014) and the file message (InvalidAuthentication), and the file still arrives', { timeout: 60_000 }, async () => {
    const dir = folder();
    writeFileSync(join(dir, 'first.md'), '# first\n');
    writeFileSync(join(dir, 'second.md'), '# second\n');
    const { emulator, cards } = await start({ fileRoots: [dir] });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Report', locale: 'en' });
    card.attach(join(dir, 'first.md'));
    const fileNames = () => emulator.robotMessages().filter((m) => m.msgKey === 'sampleFile').map((m) => m.msgParam.fileName);
    await expect.poll(fileNames, { timeout: 20_000 }).toEqual(['first.md']);
    // Both cached tokens (the gettoken one and the v1.0 one) are now refused.
    expect(emulator.revokeTokens()).toBeGreaterThan(0);
    card.attach(join(dir, 'second.md'));
    card.complete('Attached.');
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    expect(fileNames()).toEqual(['first.md', 'second.md']);
    const shown = emulator.cards()[0]!.cardData.msgContent ?? '';
    expect(shown).toContain('📎 second.md');
    expect(shown).not.toContain('not uploaded');
  });
});
