import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DIR, publishedEntryPoints } from '../api/api-report.js';
import {
  PACKAGE_DIRS,
  readBack,
  readmeAgentSample,
  REPO_ROOT,
  run,
  runOk,
  startStandaloneEmulator,
  TSC,
  userEnv,
  type StandaloneEmulator,
} from './consumer-project.js';

/**
 * End to end, as an agent product outside this repo: `npm pack` every publishable package (their
 * `prepack` brings dist/ up to date), install the tarballs into projects in the temp folder, compile the
 * README's agent sample with strict TypeScript (NodeNext and bundler resolution), run it against
 * `npx progresscard emulator` from the installed CLI, and require() every package from CommonJS.
 * One pack and one install are shared by every case (about a minute in all, most of it packing).
 */

const work = mkdtempSync(join(tmpdir(), 'progresscard-consumer-'));
const app = join(work, 'app');
const rootPackage = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { devDependencies: Record<string, string> };
const cliVersion = (JSON.parse(readFileSync(`${REPO_ROOT}packages/cli/package.json`, 'utf8')) as { version: string }).version;

let emulator: StandaloneEmulator | undefined;

function writeProject(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** The README sample as written (it opens a Feishu card), and the same sample opening a DingTalk card. */
function agentSources(): Record<string, string> {
  const sample = readmeAgentSample();
  const dingtalk = sample.replace("cards.open('feishu')", "cards.open('dingtalk')");
  if (dingtalk === sample) throw new Error("the README sample no longer calls cards.open('feishu'); update this test");
  // One line after the sample so the test learns which message it delivered.
  const report = '\nconsole.log(JSON.stringify({ final }));\n';
  return { 'src/agent-feishu.ts': sample + report, 'src/agent-dingtalk.ts': dingtalk + report };
}

const STRICT = { strict: true, target: 'ES2022', lib: ['ES2023'], types: ['node'], outDir: 'dist', rootDir: 'src' };

beforeAll(async () => {
  const packs = join(work, 'packs');
  mkdirSync(packs, { recursive: true });
  const packed = await runOk('npm', ['pack', ...PACKAGE_DIRS.flatMap((dir) => ['-w', dir]), '--pack-destination', packs, '--json'], {
    cwd: REPO_ROOT,
    // Each package's prepack brings its dist/ up to date (an incremental tsc -b, one after the other; from
    // clean it took over 10 minutes with 4 e2e workers on a busy 2-core machine).
    timeoutMs: 1_200_000,
  });
  const tarballs = (JSON.parse(packed.stdout) as { filename: string }[]).map((p) => join(packs, p.filename));
  expect(tarballs).toHaveLength(PACKAGE_DIRS.length);

  writeProject(app, { 'package.json': JSON.stringify({ name: 'progresscard-consumer', private: true }, null, 2) });
  await runOk('npm', ['install', '--no-audit', '--no-fund', ...tarballs, `@types/node@${rootPackage.devDependencies['@types/node']}`,
    // what a channel plugin package written by `progresscard new-channel` builds and tests with
    `typescript@${rootPackage.devDependencies.typescript}`, `vitest@${rootPackage.devDependencies.vitest}`], { cwd: app, timeoutMs: 240_000 });

  const agents = agentSources();
  writeProject(join(app, 'esm-nodenext'), {
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext' } }, null, 2),
    ...agents,
  });
  writeProject(join(app, 'bundler'), {
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { ...STRICT, module: 'ESNext', moduleResolution: 'bundler' } }, null, 2),
    ...agents,
  });
  writeProject(join(app, 'cjs'), { 'consumer.cjs': CJS_CONSUMER });

  emulator = await startStandaloneEmulator(app);
}, 1_500_000);

// Removing the installed projects (about 100 MB, 6 000 files) took 20 s on a busy shared disk.
afterAll(async () => {
  await emulator?.stop();
  rmSync(work, { recursive: true, force: true });
}, 120_000);

/** Compiles a project with strict TypeScript, runs both agents, and checks the read-back of both emulators. */
async function compileAndRunAgents(project: string): Promise<void> {
  const dir = join(app, project);
  await runOk(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, timeoutMs: 120_000 });
  for (const channel of ['feishu', 'dingtalk'] as const) {
    const agent = await run(process.execPath, [`dist/agent-${channel}.js`], { cwd: dir, env: userEnv(emulator!.env), timeoutMs: 60_000 });
    expect(agent.code, `${project} agent-${channel}:\n${agent.stdout}\n${agent.stderr}`).toBe(0);
    const { final } = JSON.parse(agent.stdout.trim().split('\n').pop()!) as { final: { ok: boolean; status: string; message?: { id: string } } };
    expect(final).toMatchObject({ ok: true, status: 'completed' });

    // Read back what the emulator holds: the card ends completed with the answer on it.
    const cards = (await readBack(emulator!.previewUrl))[channel] ?? [];
    const card = cards.find((c) => c.id === final.message!.id);
    expect(card, `${channel} card ${final.message!.id} among ${cards.map((c) => c.id).join(', ')}`).toBeDefined();
    expect(card!.state).toBe(channel === 'feishu' ? 'green' : 'finished');
    expect(card!.html).toContain('All tests pass.');
  }
}

describe('the packed packages in a project outside the repo', () => {
  it('compile the README agent sample under strict NodeNext and run it to completed cards on both emulators', async () => {
    await compileAndRunAgents('esm-nodenext');
  }, 180_000);

  it('compile and run the same sample with moduleResolution bundler', async () => {
    await compileAndRunAgents('bundler');
  }, 180_000);

  it('can be require()d from CommonJS, with the runtime exports the API report records', async () => {
    const result = await runOk(process.execPath, ['cjs/consumer.cjs'], { cwd: app, timeoutMs: 60_000 });
    const { exports, final } = JSON.parse(result.stdout) as { exports: Record<string, string[]>; final: { ok: boolean; status: string } };
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    for (const entry of publishedEntryPoints().filter((e) => e.subpath === '.')) {
      const recorded = readFileSync(`${API_DIR}${entry.reportFile}`, 'utf8')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => line.split(':')[0]);
      expect(exports[entry.packageName], `dist of ${entry.packageName} vs api/${entry.reportFile}`).toEqual(recorded);
    }
  }, 60_000);

  it('npx progresscard replay <bundled trace> --json prints only JSON on stdout', async () => {
    const replay = await run('npx', ['--no-install', 'progresscard', 'replay', 'codex-rollout-plain.jsonl', '--json', '--speed', '1000'], { cwd: app, timeoutMs: 120_000 });
    expect(replay.code, replay.stderr).toBe(0);
    const summary = JSON.parse(replay.stdout) as { ok: boolean; summary: { channels: { channel: string; statuses: string[] }[] } };
    expect(summary.ok).toBe(true);
    expect(summary.summary.channels.map((c) => [c.channel, c.statuses])).toEqual([
      ['feishu', ['completed']],
      ['dingtalk', ['completed']],
      ['slack', ['completed']],
      ['telegram', ['completed']],
      ['discord', ['completed']],
      ['wecom', ['completed']],
      ['teams', ['completed']],
    ]);
  }, 120_000);

  it('npx progresscard new-channel writes a plugin that passes its own tests unmodified and drives demo, replay, plan, doctor and smoke through its config file', async () => {
    await runOk('npx', ['--no-install', 'progresscard', 'new-channel', 'acme-chat'], { cwd: app });
    const plugin = join(app, 'progresscard-plugin-acme-chat');
    // its dependencies resolve from the project's node_modules, where the tarballs are installed
    await runOk('npm', ['run', 'build'], { cwd: plugin, timeoutMs: 120_000 });
    const tests = await runOk('npm', ['test'], { cwd: plugin, timeoutMs: 240_000 });
    expect(tests.stdout).toMatch(/Tests\s+\d+ passed/);

    const cli = (args: string[]) => run('npx', ['--no-install', 'progresscard', ...args], { cwd: plugin, timeoutMs: 180_000 });
    const replay = await cli(['replay', 'codex-rollout-plain.jsonl', '--channel', 'acme-chat', '--json', '--speed', '1000']);
    expect(replay.code, replay.stderr).toBe(0);
    expect((JSON.parse(replay.stdout) as { summary: { channels: { channel: string; statuses: string[] }[] } }).summary.channels.map((c) => [c.channel, c.statuses])).toEqual([
      ['acme-chat', ['completed']],
    ]);
    const demo = await cli(['demo', '--channel', 'acme-chat', '--speed', '1000', '--no-preview']);
    expect(demo.code, demo.stderr).toBe(0);
    const plan = await cli(['plan', '--channel', 'acme-chat', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { channels: { channel: string }[] }).channels.map((c) => c.channel)).toEqual(['acme-chat']);
    const doctor = await cli(['doctor', '--emulator', '--channel', 'acme-chat', '--json']);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    const smoke = await cli(['smoke', '--channel', 'acme-chat', '--out', join(plugin, 'smoke'), '--no-screenshots']);
    expect(smoke.code, smoke.stdout + smoke.stderr).toBe(0);
  }, 600_000);

  it('npx progresscard --version prints the package version and --help shows the npx commands', async () => {
    const version = await runOk('npx', ['--no-install', 'progresscard', '--version'], { cwd: app });
    expect(version.stdout).toBe(`${cliVersion}\n`);
    const help = await runOk('npx', ['--no-install', 'progresscard', '--help'], { cwd: app });
    expect(help.stdout).toContain('npx progresscard demo');
    expect(help.stdout).toContain('npx progresscard emulator');
  }, 60_000);
});

const CJS_CONSUMER = `// A plain CommonJS consumer: Node 20.19+ require()s the ESM packages.
const packages = ${JSON.stringify(publishedEntryPoints().filter((e) => e.subpath === '.').map((e) => e.packageName))};
const found = {};
for (const name of packages) found[name] = Object.keys(require(name)).filter((k) => k !== 'module.exports').sort();
const { createProgressCards, memoryChannel } = require('@progresscard/core');
(async () => {
  const cards = createProgressCards({ channels: [memoryChannel()] });
  const card = cards.open('memory');
  card.start({ title: 'From CommonJS' });
  card.answer('done');
  card.complete();
  const final = await card.finalDelivery;
  await cards.shutdown();
  console.log(JSON.stringify({ exports: found, final }));
})();
`;
