import type { ScriptedEvent } from '@progresscard/core/testing';

/**
 * The smoke matrix: short agent runs that together touch every part of a card a renderer change
 * can break. Each is a script (times in ms from the run start) plus what a user must see on the
 * cards once it ended: markers that must appear (across the main card and its continuations),
 * markers that must appear exactly once on the main card (no duplicated text), and markers that
 * must not appear.
 */
export interface SmokeScenario {
  readonly id: string;
  readonly title: string;
  /** Everything up to (not including) the terminal event. */
  readonly events: readonly ScriptedEvent[];
  /** The terminal event. */
  readonly end: ScriptedEvent;
  /** When set, the card is also looked at while running, this many ms into the script. */
  readonly runningAtMs?: number;
  /** Must show somewhere on the final cards (main and continuations). */
  readonly expect: readonly string[];
  /** Must show on the running card (with {@link runningAtMs}). */
  readonly expectRunning?: readonly string[];
  /** Must show exactly once on the final main card. */
  readonly once?: readonly string[];
  /** Must not show on any final card. */
  readonly absent?: readonly string[];
}

/** A 2×2 PNG, the screenshot of the images scenario. */
const SCREENSHOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

const started = (title: string, at = 0): ScriptedEvent => ({ type: 'run.started', title, locale: 'en', model: 'model-x', at });

const table = (columns: number, rows: number) =>
  [
    `| ${Array.from({ length: columns }, (_, c) => `Col ${c + 1}`).join(' | ')} |`,
    `| ${Array.from({ length: columns }, () => '---').join(' | ')} |`,
    ...Array.from({ length: rows }, (_, r) => `| ${Array.from({ length: columns }, (_, c) => `r${r + 1}c${c + 1}`).join(' | ')} |`),
  ].join('\n');

const sections = Array.from(
  { length: 14 },
  (_, i) => `## Section ${i + 1}\n\n${`Finding ${i + 1} explains what the trace shows and why it matters for the release. `.repeat(8).trim()}`,
).join('\n\n');

/** The scenarios, in the order `smoke` runs and shows them. */
export const SMOKE_SCENARIOS: readonly SmokeScenario[] = [
  {
    id: 'short-reply',
    title: 'Short reply',
    events: [started('Short reply'), { type: 'answer.delta', text: 'The build is green again.', at: 800 }],
    end: { type: 'run.completed', at: 1200 },
    expect: ['The build is green again'],
    once: ['The build is green again'],
  },
  {
    id: 'structured-reply',
    title: 'Structured reply',
    events: [
      started('Structured reply'),
      {
        type: 'answer.delta',
        text: '## Conclusion\n\nThe flaky test depends on wall time.\n\n## Suggestions\n\n- Use fake timers\n- Remove the sleep\n\n## Next steps\n\n1. Patch the test\n2. Rerun the suite',
        at: 2000,
      },
    ],
    end: { type: 'run.completed', at: 2500 },
    expect: ['Conclusion', 'Suggestions', 'Next steps', 'Use fake timers', 'Rerun the suite'],
  },
  {
    id: 'table-3x5',
    title: 'A 3×5 table',
    events: [started('Table 3x5'), { type: 'answer.delta', text: `Results:\n\n${table(3, 5)}`, at: 1000 }],
    end: { type: 'run.completed', at: 1500 },
    expect: ['Col 3', 'r1c1', 'r5c3'],
  },
  {
    id: 'table-20-rows',
    title: 'A 20-row table',
    events: [started('Table 20 rows'), { type: 'answer.delta', text: `All rows:\n\n${table(4, 20)}`, at: 1000 }],
    end: { type: 'run.completed', at: 1500 },
    expect: ['r1c1', 'r10c4', 'r20c1', 'r20c4'],
  },
  {
    id: 'long-analysis',
    title: 'A long analysis (continues, nothing lost)',
    events: [started('Long analysis'), { type: 'answer.delta', text: sections, at: 3000 }],
    end: { type: 'run.completed', at: 4000 },
    expect: Array.from({ length: 14 }, (_, i) => `Finding ${i + 1} explains`),
  },
  {
    id: 'streamed-final',
    title: 'Streamed final (deltas, then completed)',
    events: [
      started('Streamed final'),
      { type: 'answer.delta', text: 'Part one of the answer. ', at: 500 },
      { type: 'answer.delta', text: 'Part two of the answer. ', at: 1000 },
      { type: 'answer.delta', text: 'Part three of the answer.', at: 1500 },
    ],
    end: { type: 'run.completed', answer: 'Part one of the answer. Part two of the answer. Part three of the answer.', at: 2000 },
    expect: ['Part one of the answer', 'Part three of the answer'],
    once: ['Part one of the answer', 'Part two of the answer', 'Part three of the answer'],
  },
  {
    id: 'tool-calls',
    title: 'Tool calls (running with elapsed time, then finished)',
    events: [
      started('Tool calls'),
      { type: 'tool.started', callId: 't1', name: 'shell', args: { command: 'npm test' }, at: 1000 },
      { type: 'tool.started', callId: 't2', name: 'read_file', args: { path: 'src/index.ts' }, at: 1500 },
      { type: 'tool.finished', callId: 't2', summary: '120 lines', at: 2000 },
      { type: 'tool.finished', callId: 't1', summary: '42 passed', at: 9000 },
      { type: 'answer.delta', text: 'All 42 tests pass.', at: 9500 },
    ],
    end: { type: 'run.completed', at: 10_000 },
    runningAtMs: 6000,
    expectRunning: ['npm test', '5s'],
    expect: ['npm test', 'src/index.ts', 'All 42 tests pass'],
  },
  {
    id: 'footer',
    title: 'Footer (duration, model, tokens, context %)',
    events: [
      started('Footer'),
      { type: 'usage', inputTokens: 12_800, outputTokens: 1100, contextTokens: 34_000, contextWindow: 100_000, at: 60_000 },
      { type: 'answer.delta', text: 'Done.', at: 65_000 },
    ],
    end: { type: 'run.completed', at: 65_000 },
    expect: ['1m 5s', 'model-x', 'in 12.8k / out 1.1k', 'ctx 34%'],
  },
  {
    id: 'mentions',
    title: 'Mentions stay text',
    events: [started('Mentions'), { type: 'answer.delta', text: 'Ask @alice and <at id=all></at> about it.', at: 500 }],
    end: { type: 'run.completed', at: 800 },
    expect: ['alice'],
    absent: ['<at id=all>'],
  },
  {
    id: 'emoji-cut',
    title: 'Emoji at a cut',
    events: [started(`Emoji ${'🚀'.repeat(80)}`), { type: 'answer.delta', text: `${'👨‍👩‍👧‍👦'.repeat(400)} end of emoji`, at: 500 }],
    end: { type: 'run.completed', at: 800 },
    expect: ['end of emoji'],
    absent: ['\ufffd'],
  },
  {
    id: 'code-fence',
    title: 'Code fences',
    events: [started('Code fences'), { type: 'answer.delta', text: 'Fix:\n\n```ts\nconst answer = 42;\n```\n\nA stray ` backtick.', at: 500 }],
    end: { type: 'run.completed', at: 800 },
    expect: ['const answer = 42', 'backtick'],
  },
  {
    id: 'images',
    title: 'Images (a screenshot result; an answer image whose file is missing)',
    events: [
      started('Images'),
      { type: 'tool.started', callId: 's1', name: 'screenshot', args: { url: 'http://localhost:3000/login' }, at: 500 },
      { type: 'tool.finished', callId: 's1', summary: 'captured', images: [{ data: SCREENSHOT_PNG, mediaType: 'image/png', alt: 'login page' }], at: 1000 },
      { type: 'answer.delta', text: 'The form renders.\n\n![missing chart](./no-such-dir/chart.png)', at: 1500 },
    ],
    end: { type: 'run.completed', at: 2000 },
    // Feishu shows the screenshot as an image (no text); every channel names the missing one.
    expect: ['The form renders', '[image: missing chart]'],
    absent: [SCREENSHOT_PNG.slice(0, 24), 'no-such-dir'],
  },
];
