/**
 * Names come from files anyone may have written: what a report prints of a name must never
 * become something else — a stack line of its own, a terminal command, live HTML, or text
 * reordered by bidirectional controls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './index';
import { type Captured, capture } from '../../test/support/cli-output';
import { tinySnapshot } from '../../test/support/heapsnapshot';

vi.mock('../server/open', () => ({ openInBrowser: vi.fn() }));

function run(...args: string[]): Promise<Captured> {
  return capture((out) => main(args, out));
}
afterEach(() => vi.restoreAllMocks());

const FORGED = 'main\nforged;evil_frame 999999';
const ESC = 'title\u001b]0;owned\u0007\u001b[2J\rcover';
const BIDI = 'isAdmin\u202e\u2066 // check\u2069\u2066';
const HTML = '<img src=x onerror=alert(1)>';

let dir: string;
let cpu: string;
let base: string;
let trace: string;

/** A .cpuprofile whose functions have the given names, one sample each, 1 ms apart. */
function cpuprofile(names: string[]): string {
  const nodes = [
    {
      id: 1,
      callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
      children: names.map((_, i) => i + 2),
    },
    ...names.map((functionName, i) => ({
      id: i + 2,
      callFrame: { functionName, scriptId: '1', url: '/srv/app/x.js', lineNumber: i, columnNumber: 0 },
    })),
  ];
  const samples = names.map((_, i) => i + 2);
  return JSON.stringify({ nodes, startTime: 0, endTime: names.length * 1000, samples, timeDeltas: samples.map(() => 1000) });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-hostile-'));
  cpu = join(dir, 'run.cpuprofile');
  base = join(dir, 'base.cpuprofile');
  writeFileSync(cpu, cpuprofile([FORGED, ESC, BIDI, HTML]));
  writeFileSync(base, cpuprofile(['plain']));
  trace = join(dir, 'trace.json');
  writeFileSync(
    trace,
    JSON.stringify({
      traceEvents: [ESC, BIDI, HTML, FORGED].map((name, i) => ({ name, cat: 'x', ph: 'X', ts: i, dur: 1, pid: 1, tid: 1 })),
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** No control character but line breaks, and no bidi control, reaches the terminal. */
function clean(text: string): void {
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

describe('names from files in reports', () => {
  it('folded output: a name cannot forge a stack line or split a frame', async () => {
    const r = await run('collapse', cpu);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.some((l) => l.startsWith('forged'))).toBe(false);
    expect(lines).toContain('main\\nforged:evil_frame 999999 /srv/app/x.js:1:1 1');
    for (const l of lines) expect(l.split(';')).toHaveLength(1);
    clean(r.out);
  });

  it('terminal text: escapes are shown, not obeyed; bidi controls are shown', async () => {
    const r = await run('stats', trace);
    expect(r.code).toBe(0);
    clean(r.out);
    expect(r.out).toContain('title\\x1b]0;owned\\x07\\x1b[2J\\rcover');
    expect(r.out).toContain('isAdmin\\u202e\\u2066 // check\\u2069\\u2066');
    const d = await run('diff', base, cpu, '--weight', 'samples');
    clean(d.out);
    clean(d.err);
  });

  it('terminal text of heap snapshots: a class name is shown, not obeyed', async () => {
    const snap = join(dir, 'hostile.heapsnapshot');
    writeFileSync(
      snap,
      tinySnapshot(
        [
          { name: '', size: 0 },
          { name: ESC, size: 100 },
          { name: BIDI, size: 50 },
        ],
        [
          [0, 1],
          [0, 2],
        ],
      ),
    );
    for (const args of [
      ['heap', snap],
      ['heap', snap, snap],
      ['heap', snap, '--match', 'title'],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(0);
      expect(r.out).toContain('title\\x1b]0;owned\\x07');
      clean(r.out);
    }
  });

  it('Markdown: a name is inline code, never HTML or a table cell of its own', async () => {
    const r = await run('diff', base, cpu, '--markdown', '--top', '0', '--weight', 'samples');
    expect(r.code).toBe(0);
    clean(r.out);
    const row = r.out.split('\n').find((l) => l.includes('<img'))!;
    expect(row).toContain(`\`${HTML}\``);
    // outside code spans there is no tag
    expect(row.replace(/`[^`]*`/g, '')).not.toContain('<img');
    const s = await run('stats', trace, '--markdown');
    expect(s.out.replace(/`[^`]*`/g, '')).not.toContain('<img');
  });

  it('JSON: the same characters as \\u escapes, which read back as the file had them', async () => {
    const r = await run('stats', trace, '--json');
    expect(r.code).toBe(0);
    clean(r.out);
    const names = JSON.stringify(JSON.parse(r.out));
    // names as the model shows them: visible escapes, whatever JSON wraps them in
    expect(names).toContain('isAdmin\\\\u202e');
  });
});

describe('long names in the text report', () => {
  it('a 1 MiB category name is cut in the text table, not padded into every row', async () => {
    const huge = join(dir, 'huge.json');
    const cat = 'c'.repeat(1 << 20);
    writeFileSync(
      huge,
      JSON.stringify({
        traceEvents: Array.from({ length: 2000 }, (_, i) => ({
          name: `e${i}`,
          cat: i === 0 ? cat : 'x',
          ph: 'X',
          ts: i,
          dur: 1,
          pid: 1,
          tid: 1,
        })),
      }),
    );
    const r = await run('stats', huge);
    expect(r.code).toBe(0);
    expect(r.out.length).toBeLessThan(2_000_000);
    expect(r.out).toContain(`${'c'.repeat(119)}…`);
    expect(r.out).not.toContain('c'.repeat(121));
    // the JSON report keeps the name whole
    expect((await run('stats', huge, '--json')).out).toContain(cat);
  });
});
