import type { ScriptedEvent } from '../play-events.js';

/**
 * The shared field fault cases every channel must pass, as data shipped in the package: the agent
 * events of each case (`at` in ms from the run start) and the behaviour that is right, in words.
 * The scripts are those of the project's field cases F01, F02, F05, F06 and F08 (collected from
 * live cards that broke; see the repository's `plugins/*\/test/fixtures/faults*.jsonl`), with the
 * platform answers left to each driver.
 */
export interface ConformanceCase {
  /** E.g. `F01`. */
  readonly id: string;
  readonly kind: string;
  readonly events: readonly (ScriptedEvent & { readonly at: number })[];
  /** The behaviour that is right, in words. */
  readonly expect: readonly string[];
  /** Text the final card (or its continuation parts) must show. */
  readonly finalText: string;
}

const shell = (command: string) => JSON.stringify({ command });

/** The cases by id. */
export const CONFORMANCE_CASES = {
  F01: {
    id: 'F01',
    kind: 'rate limit answered mid-run',
    events: [
      { at: 0, type: 'run.started', title: 'Refactor parser' },
      { at: 10, type: 'round.started', round: 1 },
      { at: 20, type: 'tool.started', callId: 'c1', name: 'shell', args: shell('npm test') },
      { at: 4000, type: 'tool.finished', callId: 'c1', summary: '212 passed' },
      { at: 4100, type: 'answer.delta', text: 'All tests pass. ' },
      { at: 4300, type: 'answer.delta', text: 'The parser now accepts trailing commas.' },
      { at: 4400, type: 'run.completed' },
    ],
    expect: ['waits the time the platform gives', 'one message', 'never older content', 'the final holds the full answer'],
    finalText: 'The parser now accepts trailing commas.',
  },
  F02: {
    id: 'F02',
    kind: 'burst of state changes on one card',
    events: [
      { at: 0, type: 'run.started' },
      { at: 1, type: 'thinking.delta', text: 'Looking at the failing test' },
      { at: 20, type: 'tool.started', callId: 'a', name: 'read_file', args: JSON.stringify({ path: 'src/parse.ts' }) },
      { at: 40, type: 'answer.delta', text: 'Found it: ' },
      { at: 60, type: 'answer.delta', text: 'an off-by-one in the lexer.' },
      { at: 80, type: 'tool.finished', callId: 'a', summary: '120 lines' },
      { at: 5000, type: 'run.completed' },
    ],
    expect: ['one request in flight per card', 'the final shows the latest state'],
    finalText: 'an off-by-one in the lexer.',
  },
  F06: {
    id: 'F06',
    kind: 'message recalled during the run',
    events: [
      { at: 0, type: 'run.started' },
      { at: 10, type: 'tool.started', callId: 'w', name: 'shell', args: shell('./deploy.sh') },
      { at: 30_000, type: 'tool.finished', callId: 'w', summary: 'deployed' },
      { at: 30_100, type: 'run.completed', answer: 'Deployed.' },
    ],
    expect: ['at most one call after the first gone', 'the final goes out once as a fresh message'],
    finalText: 'Deployed.',
  },
  F08: {
    id: 'F08',
    kind: 'multi-round run accumulates in one card',
    events: [
      { at: 0, type: 'run.started' },
      { at: 10, type: 'thinking.delta', text: 'Plan: check the config, then answer.' },
      { at: 500, type: 'tool.started', callId: 'r', name: 'read_file', args: JSON.stringify({ path: 'config.yaml' }) },
      { at: 900, type: 'tool.finished', callId: 'r', summary: '42 lines' },
      { at: 1000, type: 'round.ended', round: 1 },
      { at: 1100, type: 'round.started', round: 2 },
      { at: 1200, type: 'answer.delta', text: 'The timeout is 30 s.' },
      { at: 1300, type: 'run.completed' },
    ],
    expect: ['one message holds the tools and the answer'],
    finalText: 'The timeout is 30 s.',
  },
} as const satisfies Record<string, ConformanceCase>;

/**
 * F05's answer, over every platform's limits: five GFM tables of 6 rows, then about 40 000
 * characters of prose with a fenced code block still open at the 25 000th, ending in
 * `END-OF-ANSWER` (so a test sees the whole answer arrived).
 */
export function oversizedAnswer(): string {
  const table = ['| name | value | note |', '|---|---|---|', ...Array.from({ length: 6 }, (_, i) => `| row ${i} | ${i * 7} | fine |`)].join('\n');
  const tables = Array.from({ length: 5 }, () => table).join('\n\n');
  const prose = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: the quick brown fox jumps over the lazy dog near the river bank.`).join('\n\n');
  const cut = 25_000 - tables.length;
  return `${tables}\n\n${prose.slice(0, cut)}\n\n\`\`\`ts\nconst open = true;\n${prose.slice(cut, cut + 8000)}\n\nEND-OF-ANSWER`;
}
