/**
 * Files the agent produced, sent back to the chat with the card (`card.attach(path)`), over the
 * Feishu and Slack emulators (real loopback HTTP): on Feishu the file is uploaded
 * (`im.v1.file.create`) and sent as a file message into the card's chat, and the final card names
 * it; on Slack it is uploaded (files.getUploadURLExternal, the bytes, files.completeUploadExternal)
 * into the card's thread and the final card links its permalink; a file outside the opt-in roots
 * is never read and the final card says why. No card is left waiting.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { DEFAULT_SLACK_WORKSPACE, startFeishuEmulator, startSlackEmulator, type FeishuEmulator, type SlackEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';

let feishuEmulator: FeishuEmulator | undefined;
let slackEmulator: SlackEmulator | undefined;
let cards: ProgressCards | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await cards?.shutdown();
  await feishuEmulator?.close();
  await slackEmulator?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'progresscard-attach-'));
  dirs.push(dir);
  return dir;
}

async function compose(roots: string[]): Promise<ProgressCards> {
  feishuEmulator = await startFeishuEmulator({ apps: [{ appId: 'cli_files', appSecret: 'files-secret' }] });
  slackEmulator = await startSlackEmulator();
  cards = createProgressCards({
    logger: silentLogger,
    env: {},
    channels: [
      feishu({ appId: 'cli_files', appSecret: 'files-secret', domain: feishuEmulator.baseUrl, receiveId: 'oc_team', debounceMs: 50, imageRoots: roots }),
      slack({ botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: slackEmulator.apiUrl, debounceMs: 50, fileRoots: roots }),
    ],
  });
  return cards;
}

/** A run that writes a report and attaches it. */
async function reportRun(card: ProgressCard, path: string): Promise<string> {
  card.start({ title: 'Weekly report' });
  card.toolStarted('w1', 'write_file', { path });
  card.toolFinished('w1', 'written');
  card.attach(path);
  card.complete('The report is attached.');
  const final = await card.finalDelivery;
  expect(final).toMatchObject({ ok: true, status: 'completed' });
  return final.message!.id;
}

describe('files the agent produced, on the final card', () => {
  it('Feishu uploads the report, sends it as a file message into the card\'s chat, and the final card names it', { timeout: 60_000 }, async () => {
    const dir = folder();
    const path = join(dir, 'report.md');
    writeFileSync(path, '# Weekly report\n\nAll green.\n');
    const composed = await compose([dir]);
    const cardId = await reportRun(composed.open('feishu', undefined, { locale: 'en' }), path);
    const files = feishuEmulator!.files();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ fileName: 'report.md', fileType: 'stream' });
    expect(Buffer.from(files[0]!.bytes).toString()).toContain('All green.');
    // A file message in the card's chat (a reply to the card once the card is sent; here the run
    // attached it before the card's first send).
    const fileMessage = feishuEmulator!.messages().find((m) => m.msgType === 'file');
    expect(fileMessage).toMatchObject({ chatId: feishuEmulator!.message(cardId)!.chatId });
    expect(JSON.parse(fileMessage!.content as string)).toEqual({ file_key: files[0]!.fileKey });
    const card = JSON.stringify(feishuEmulator!.message(cardId)!.card);
    expect(card).toContain('📎 report.md');
    expect(card).not.toContain('not uploaded');
  });

  it('a slow upload holds the final back: the final card names the file as uploaded, never "uploading…"', { timeout: 60_000 }, async () => {
    const dir = folder();
    const path = join(dir, 'report.md');
    writeFileSync(path, '# Weekly report\n\nAll green.\n');
    const composed = await compose([dir]);
    // The upload answers after the card's first send (debounced 50 ms) is due, which already shows the ended run.
    feishuEmulator!.faults.add({ route: 'im.file.create', latencyMs: 1500 });
    const cardId = await reportRun(composed.open('feishu', undefined, { locale: 'en' }), path);
    expect(feishuEmulator!.files()).toHaveLength(1);
    const card = JSON.stringify(feishuEmulator!.message(cardId)!.card);
    expect(card).toContain('📎 report.md');
    expect(card).not.toContain('uploading');
  });

  it('Slack uploads the report into the card\'s thread once the card is sent, and the final card links it', { timeout: 60_000 }, async () => {
    const dir = folder();
    const path = join(dir, 'report.md');
    writeFileSync(path, '# Weekly report\n\nAll green.\n');
    const composed = await compose([dir]);
    const card = composed.open('slack');
    card.start({ title: 'Weekly report' });
    await expect.poll(() => card.message?.id, { timeout: 20_000 }).toBeDefined();
    const cardTs = await reportRun(card, path);
    const files = slackEmulator!.files();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ filename: 'report.md', title: 'report.md', shared: { channel: DEFAULT_SLACK_WORKSPACE.channel, threadTs: cardTs } });
    expect(Buffer.from(files[0]!.bytes!).toString()).toContain('All green.');
    // The file message is a reply in the card's thread, carrying the file.
    const inThread = slackEmulator!.messages({ threadTs: cardTs }).filter((m) => m.fileIds?.includes(files[0]!.id));
    expect(inThread).toHaveLength(1);
    const blocks = JSON.stringify(slackEmulator!.message(cardTs)!.blocks);
    expect(blocks).toContain(`<${files[0]!.permalink}|📎 report.md>`);
    expect(blocks).not.toContain('not uploaded');
  });

  it('a file outside the opt-in roots is not read: the final card says so on each channel', { timeout: 60_000 }, async () => {
    const allowed = folder();
    const secret = join(folder(), 'id_rsa.txt');
    writeFileSync(secret, 'not for the chat');
    const composed = await compose([allowed]);
    const [onFeishu, onSlack] = await Promise.all([
      reportRun(composed.open('feishu', undefined, { locale: 'en' }), secret),
      reportRun(composed.open('slack'), secret),
    ]);
    expect(feishuEmulator!.files()).toEqual([]);
    expect(slackEmulator!.files()).toEqual([]);
    expect(JSON.stringify(feishuEmulator!.message(onFeishu)!.card)).toContain('📎 id_rsa.txt (not uploaded: outside the allowed folders, or not found)');
    expect(JSON.stringify(slackEmulator!.message(onSlack)!.blocks)).toContain('📎 id_rsa.txt (not uploaded: outside the allowed folders, or not found)');
  });
});
