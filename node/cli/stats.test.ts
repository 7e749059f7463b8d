import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixturePath } from '../../test/support/files';
import { independentSpanFigures } from '../../test/support/trace-spans';
import { CliError } from './errors';
import { STATS_HELP, shortLabels, statsCommand } from './stats';
import { type Captured, captureFailure } from '../../test/support/cli-output';

/** Runs the command with stdout captured; a thrown error is returned, as `main` would print it. */
function run(...args: string[]): Promise<Captured> {
  return captureFailure((out) => statsCommand.run(args, out));
}

afterEach(() => vi.restoreAllMocks());

const BASE = fixturePath('samples/baseline/node_trace.1.log.gz');
const DD = fixturePath('samples/ddtrace/node_trace.1.log.gz');

type Row = { category: string; name: string; count: number; bytes: number; duration: number; covered: number };

const counted = new Map<string, Map<string, { count: number; bytes: number }>>();

/** Events per (cat, name) counted without Flamelens: gunzip, JSON.parse, a Map. */
function independentRows(path: string): Map<string, { count: number; bytes: number }> {
  const known = counted.get(path);
  if (known) return known;
  const { traceEvents } = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: Record<string, unknown>[] };
  const out = new Map<string, { count: number; bytes: number }>();
  for (const e of traceEvents) {
    const k = `${String(e.cat ?? '')}|${String(e.name ?? '')}`;
    const c = out.get(k) ?? { count: 0, bytes: 0 };
    c.count++;
    // Node writes each event exactly as JSON.stringify does (trace-events.test.ts checks it).
    c.bytes += Buffer.byteLength(JSON.stringify(e));
    out.set(k, c);
  }
  counted.set(path, out);
  return out;
}

describe('flamelens stats', () => {
  it('--json prints each file’s rows, {category, name, count, bytes, duration, covered}, counted as an independent count counts', async () => {
    const r = await run(BASE, DD, '--json');
    expect(r.error).toBeUndefined();
    expect(r.code).toBe(0);
    const got = JSON.parse(r.out) as { files: { file: string; rows: Row[] }[] };
    expect(Object.keys(got)).toEqual(['files']);
    expect(got.files.map((f) => f.file)).toEqual([BASE, DD]);
    for (const f of got.files) {
      expect(Object.keys(f)).toEqual(['file', 'rows']);
      for (const row of f.rows) expect(Object.keys(row)).toEqual(['category', 'name', 'count', 'bytes', 'duration', 'covered']);
      // Durations summed and wall time covered, as an independent pairing of the raw events finds them.
      const spans = independentSpanFigures(f.file);
      for (const row of f.rows) {
        const want = spans.get(`${row.category}\u0000${row.name}`) ?? { summed: 0, covered: 0 };
        expect(row.duration).toBeCloseTo(want.summed, 3);
        expect(row.covered).toBeCloseTo(want.covered, 3);
      }
      const mine = new Map(f.rows.map((row) => [`${row.category}|${row.name}`, { count: row.count, bytes: row.bytes }]));
      expect(mine).toEqual(independentRows(f.file));
      // largest count first
      expect(f.rows.map((row) => row.count)).toEqual([...f.rows.map((row) => row.count)].sort((a, b) => b - a));
    }
    expect(got.files[0]!.rows.find((row) => row.name === 'PROMISE')).toEqual({
      category: 'node,node.async_hooks',
      name: 'PROMISE',
      count: 39714,
      bytes: independentRows(BASE).get('node,node.async_hooks|PROMISE')!.bytes,
      duration: expect.any(Number),
      covered: expect.any(Number),
    });
    // dd-trace's promises: 1,297.7 s of overlapping lifetimes in 3.6 s of wall time.
    const promise = got.files[1]!.rows.find((row) => row.name === 'PROMISE')!;
    expect([Math.round(promise.duration / 1e5) / 10, Math.round(promise.covered / 1e4) / 100]).toEqual([1297.7, 3.64]);
    const names = (i: number) => new Set(got.files[i]!.rows.map((row) => row.name));
    for (const n of ['HTTPCLIENTREQUEST', 'UDPWRAP', 'CustomGC']) expect([names(0).has(n), names(1).has(n)]).toEqual([false, true]);
    expect(r.out.endsWith('}\n')).toBe(true);
  });

  it('--group phase and --group category change the rows and their keys', async () => {
    const byPhase = JSON.parse((await run(BASE, '--json', '--group', 'phase')).out) as { files: { rows: Record<string, unknown>[] }[] };
    const rows = byPhase.files[0]!.rows;
    expect(rows.every((row) => Object.keys(row).join() === 'phase,count,bytes,duration,covered')).toBe(true);
    const phases = rows.map((row) => row.phase);
    expect(phases).toEqual(expect.arrayContaining(['b', 'e', 'B', 'E', 'X', 'M']));
    expect(rows.reduce((n, row) => n + (row.count as number), 0)).toBe(464849);

    const byCat = JSON.parse((await run(BASE, '--json', '--group', 'category')).out) as { files: { rows: Record<string, unknown>[] }[] };
    const cats = byCat.files[0]!.rows;
    expect(cats.every((row) => Object.keys(row).join() === 'category,count,bytes,duration,covered')).toBe(true);
    expect(cats.find((row) => row.category === 'node,node.fs,node.fs.sync')!.count).toBe(656 + 506 * 3 + 2);
  });

  it('prints an aligned table with the baseline first, changes beyond the threshold, new event types', async () => {
    const r = await run(BASE, DD);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('Trace events by category and name; changes beyond 10% of the baseline shown');
    // Each file is named by what tells its path apart, as the app names runs: its folder.
    expect(lines[1]).toMatch(/^ {2}baseline: 464,849 events, [\d.]+ MiB \(baseline\)$/);
    expect(lines[2]).toMatch(/^ {2}ddtrace: 468,622 events, .*vs baseline\)$/);
    const title = lines.find((l) => l.includes('baseline (baseline)'))!;
    expect(title.indexOf('baseline (baseline)')).toBeLessThan(title.indexOf('ddtrace'));
    const row = (name: string) => lines.find((l) => new RegExp(`^\\S+\\s+${name}\\s`).test(l))!.split(/\s{2,}/);
    expect(row('fs.sync.lstat').slice(0, 6)).toEqual([
      'node,node.fs,node.fs.sync',
      'fs.sync.lstat',
      'B E',
      '656',
      expect.any(String),
      expect.any(String),
    ]);
    expect(row('fs.sync.lstat')).toContain('+120%');
    expect(row('HTTPCLIENTREQUEST')).toEqual(expect.arrayContaining(['0', '0 B', '30', 'new']));
    // Within the threshold: no change shown next to the count.
    expect(row('TickObject').slice(7, 9)).toEqual(['180,270', expect.stringMatching(/MiB$/)]);
    // The summed duration and the wall time covered, each labelled.
    expect(lines.find((l) => l.startsWith('category '))).toMatch(/count\s+bytes\s+duration \(sum\)\s+wall time\s+count\s+change/);
    expect(row('PROMISE')).toEqual(expect.arrayContaining(['1,297.7 s', '3.6 s']));
    // Every line of the table is as wide as its header or narrower; figures are right-aligned.
    const header = lines.find((l) => l.startsWith('category '))!;
    const countEnd = header.indexOf('count') + 'count'.length;
    for (const name of ['TickObject', 'fs.sync.open', 'UDPWRAP']) {
      const line = lines.find((l) => new RegExp(`\\s${name}\\s`).test(l))!;
      expect(line[countEnd - 1]).toMatch(/\d/);
      expect(line[countEnd]).toBe(' ');
    }
    expect(lines.at(-2)).toMatch(/^Total\s+464,849\s/);
  });

  it('--threshold hides smaller changes; --markdown prints the same comparison in Markdown', async () => {
    const loose = await run(BASE, DD, '--threshold', '200');
    const lstat = loose.out.split('\n').find((l) => /\sfs\.sync\.lstat\s/.test(l))!;
    expect(lstat).not.toContain('+120%');
    expect(loose.out.split('\n').find((l) => /\sUDPWRAP\s/.test(l))).toContain('new');

    const md = await run(BASE, DD, '--markdown');
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^# Flamelens trace statistics\n/);
    expect(md.out).toContain(`- \`${BASE}\`: 464,849 events`);
    expect(md.out).toContain('| category | name | phases | baseline: events |');
    expect(md.out).toMatch(/\| `node,node\.async_hooks` \| `HTTPCLIENTREQUEST` \| b e \| 0 \| 0 B \| {2}\| {2}\| \*\*30\*\* \(new\) \|/);
    expect(md.out).toContain('| baseline: duration (summed) | baseline: wall time covered |');
    expect(md.out).toMatch(/\| `node,node\.fs,node\.fs\.sync` \| `fs\.sync\.lstat` \| B E \| 656 \| .* \| \*\*1,446\*\* \(\+120%\) \|/);
  });

  it('names a file that is not a trace, and rejects bad options', async () => {
    const cpu = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
    // The trace after it is never read: the command stops at the first file it cannot use.
    const r = await run(cpu, BASE);
    expect(r.error).toBeInstanceOf(CliError);
    expect(r.error!.message).toBe(`${cpu} has no trace events; stats needs trace-event JSON (this file was read as cpuprofile)`);
    expect(r.out).toBe('');
    expect((await run()).error!.message).toMatch(/at least one TRACE/);
    expect((await run(BASE, '--group', 'thread')).error!.message).toBe('--group must be name, phase or category, not "thread"');
    expect((await run(BASE, '--threshold', 'lots')).error!.message).toMatch(/--threshold must be a percentage/);
    expect((await run(BASE, '--json', '--markdown')).error!.message).toBe('choose one of --json and --markdown');
    expect((await run(BASE, '--frobnicate')).error!.message).toMatch(/frobnicate.*flamelens stats --help/);
    expect((await run('/nope/trace.json')).error!.message).toMatch(/\/nope\/trace\.json: no such file/);
  });

  it('has help, and names files as the app names runs', async () => {
    const r = await run('--help');
    expect(r.out).toMatch(/^Usage: flamelens stats TRACE… \[--group name\|phase\|category\]/);
    expect(STATS_HELP.name).toBe('stats');
    expect(shortLabels(['a/b/x.log', 'a/c/x.log'])).toEqual(['b', 'c']);
    expect(shortLabels(['/tmp/one.json', 'two.json'])).toEqual(['one.json', 'two.json']);
    expect(shortLabels(['x.json', './x.json'])).toEqual(['x.json', 'x.json (2)']);
    expect(shortLabels(['C:\\runs\\otel\\node_trace.1.log', 'C:\\runs\\baseline\\node_trace.1.log'])).toEqual(['otel', 'baseline']);
  });
});
