import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real `progresscard` CLI the way `npm start` does (tsx on the sources). */
function runCli(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, '--tsconfig', 'tsconfig.base.json', '--conditions=source', 'packages/cli/src/bin.ts', ...args],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`progresscard ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('progresscard demo', () => {
  it('replays the bundled trace to both emulators and ends with both cards completed', async () => {
    const { code, stdout, stderr } = await runCli(['demo', '--speed', '30', '--port', '0'], 90_000);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/replaying claude-session-parallel-tasks\.jsonl \(claude-transcript\)/);
    expect(stdout).toMatch(/live preview: http:\/\/127\.0\.0\.1:\d+\//);
    // The cards' run time is the trace's span (card time runs at the trace's pace, whatever the speed).
    const spanSeconds = Number(/([\d.]+) s of trace/.exec(stdout)![1]);
    const summary = stdout.slice(stdout.indexOf('Summary'));
    for (const channel of ['feishu', 'dingtalk']) {
      const line = summary.split('\n').find((l) => l.includes(` ${channel} `));
      expect(line, summary).toBeDefined();
      expect(line).toMatch(new RegExp(`✓ ${channel}\\s+completed · (\\d+) calls, 0 rejected \\(0 rate-limited\\) · run (\\d+)m (\\d+)s$`));
      const [, , minutes, seconds] = /(\d+) calls.* run (\d+)m (\d+)s$/.exec(line!)!;
      expect(Math.abs(Number(minutes) * 60 + Number(seconds) - spanSeconds)).toBeLessThanOrEqual(1);
      const calls = Number(/(\d+) calls/.exec(line!)![1]);
      expect(calls).toBeGreaterThanOrEqual(2); // a send and the final at least (how many updates in between depends on wall time)
    }
    // Progress goes to stderr, one line per status change of each card.
    expect(stderr).toMatch(/feishu: completed/);
    expect(stderr).toMatch(/dingtalk: completed/);
  }, 120_000);

  it('exits 2 naming a bad --speed', async () => {
    // Starting the CLI through tsx takes a while on a busy machine; the bad value is refused before any emulator starts.
    const { code, stderr } = await runCli(['demo', '--speed', 'zero'], 150_000);
    expect(code).toBe(2);
    expect(stderr).toContain("option '--speed <n>' argument 'zero' is invalid");
  }, 160_000);
});
