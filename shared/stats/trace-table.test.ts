import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import type { TraceEventStat } from '../model/types';
import { fileSource, fixturePath } from '../../test/support/files';
import { csvField } from '../report/fields';
import { changeTitle, formatChange, statsCsv, statsMarkdown } from './trace-table-export';
import { coveredTime } from './intervals';
import { type StatsRow, buildStatsTable, filterRows, groupStats, sortRows, totalOf } from './trace-table';
import { independentSpanFigures } from '../../test/support/trace-spans';
import { loadRegexEngine } from '../search/matcher';

// (`/…/` queries run once their engine has loaded: matcher-loading.test.ts tests before)
await loadRegexEngine();

const ASYNC = 'node,node.async_hooks';
const FS = 'node,node.fs,node.fs.sync';
/** A row as the importer makes it; a duration without spans given is one span from 0. */
const stat = (
  category: string,
  name: string,
  phase: string,
  count: number,
  bytes: number,
  duration = 0,
  spans?: number[],
): TraceEventStat => {
  const row: TraceEventStat = { category, name, phase, count, bytes, duration };
  if (duration > 0) {
    row.spans = Float64Array.from(spans ?? [0, duration]);
    row.covered = coveredTime(row.spans);
  }
  return row;
};

const BASE: TraceEventStat[] = [
  stat(ASYNC, 'PROMISE', 'b', 10, 1000, 500),
  stat(ASYNC, 'PROMISE', 'e', 10, 900),
  stat(FS, 'fs.sync.open', 'X', 5, 500, 50),
  stat('v8', 'V8.GCScavenger', 'X', 4, 400, 100),
  stat('__metadata', 'thread_name', 'M', 2, 200),
];
const RUN: TraceEventStat[] = [
  stat(ASYNC, 'PROMISE', 'b', 11, 1100, 520),
  stat(ASYNC, 'PROMISE', 'e', 11, 990),
  stat(FS, 'fs.sync.open', 'X', 10, 1000, 45),
  stat(ASYNC, 'HTTPCLIENTREQUEST', 'b', 3, 300, 90),
  stat(ASYNC, 'HTTPCLIENTREQUEST', 'e', 3, 290),
  stat('__metadata', 'thread_name', 'M', 2, 200),
];

const rowNamed = (rows: StatsRow[], name: string) => rows.find((r) => r.name === name)!;

describe('grouping trace statistics', () => {
  it('by category and name sums the phases of one event type', () => {
    const g = groupStats(BASE);
    expect(g.map((r) => r.name)).toEqual(['PROMISE', 'fs.sync.open', 'V8.GCScavenger', 'thread_name']);
    expect(g[0]).toEqual({
      key: `${ASYNC}\u0000PROMISE`,
      category: ASYNC,
      name: 'PROMISE',
      phase: '',
      phases: ['b', 'e'],
      count: 20,
      bytes: 1900,
      duration: 500,
      covered: 500,
      spans: Float64Array.from([0, 500]),
    });
  });

  it('covers the union of overlapping spans, across the rows a grouping and a total join', () => {
    // Three promises alive at once for 100 µs each, staggered by 10 µs; a timer inside them; an
    // fs call in another category, apart in time.
    const stats = [
      stat(
        ASYNC,
        'PROMISE',
        'b',
        3,
        300,
        300,
        [0, 100, 10, 110, 20, 120].sort((a, b) => a - b),
      ),
      stat(ASYNC, 'PROMISE', 'e', 3, 300),
      stat(ASYNC, 'Timeout', 'b', 1, 100, 50, [30, 80]),
      stat(FS, 'fs.sync.open', 'X', 2, 200, 20, [200, 210, 300, 310]),
    ];
    // PROMISE as the importer merges it: 0–120
    stats[0]!.spans = Float64Array.from([0, 120]);
    stats[0]!.covered = 120;
    const byName = groupStats(stats);
    const row = (n: string) => byName.find((r) => r.name === n)!;
    expect([row('PROMISE').duration, row('PROMISE').covered]).toEqual([300, 120]);
    expect([row('Timeout').duration, row('Timeout').covered]).toEqual([50, 50]);
    expect([row('fs.sync.open').duration, row('fs.sync.open').covered]).toEqual([20, 20]);
    // By category: the timer lies inside the promises' time, so the category covers 0–120.
    const byCategory = groupStats(stats, 'category');
    expect(byCategory.find((r) => r.category === ASYNC)!).toMatchObject({ duration: 350, covered: 120 });
    // The total: 0–120 plus the two fs calls.
    const t = buildStatsTable([{ label: 'run', stats }]);
    expect([t.total.cells[0]!.duration, t.total.cells[0]!.covered]).toEqual([370, 140]);
    // A filter's total covers only the rows it kept.
    const kept = filterRows(t.rows, '/Timeout|open/').rows;
    expect(totalOf(t, kept).cells[0]!.covered).toBe(70);
  });

  it('says it does not know the wall time where a row has a duration but no spans (older workspaces)', () => {
    const old: TraceEventStat = { category: ASYNC, name: 'PROMISE', phase: 'b', count: 1, bytes: 10, duration: 40 };
    expect(groupStats([old])[0]!.covered).toBeNaN();
    expect(groupStats([stat(ASYNC, 'PROMISE', 'e', 1, 10)])[0]!.covered).toBe(0);
  });

  it('by phase alone and by category alone', () => {
    expect(groupStats(BASE, 'phase').map((r) => [r.phase, r.count, r.bytes])).toEqual([
      ['b', 10, 1000],
      ['e', 10, 900],
      ['X', 9, 900],
      ['M', 2, 200],
    ]);
    const byCat = groupStats(BASE, 'category');
    expect(byCat.map((r) => [r.category, r.count, r.phases.join(' ')])).toEqual([
      [ASYNC, 20, 'b e'],
      [FS, 5, 'X'],
      ['v8', 4, 'X'],
      ['__metadata', 2, 'M'],
    ]);
    expect(byCat.every((r) => r.name === '' && r.phase === '')).toBe(true);
  });
});

describe('the comparison table', () => {
  const t = buildStatsTable([
    { label: 'base', stats: BASE },
    { label: 'agent', stats: RUN },
  ]);

  it('puts the baseline first and flags new, gone and differing cells', () => {
    expect(t.runs).toEqual(['base', 'agent']);
    const promise = rowNamed(t.rows, 'PROMISE');
    expect(promise.cells.map((c) => c.count)).toEqual([20, 22]);
    // exactly 10% more is not above the 10% threshold
    expect(promise.cells[1]!.change.count).toEqual({ absolute: 2, relative: expect.closeTo(0.1, 9), flag: 'same' });
    expect(promise.cells[0]!.change.count.flag).toBe('baseline');
    expect(promise.flagged).toBe(false);

    const open = rowNamed(t.rows, 'fs.sync.open');
    expect(open.cells[1]!.change.count).toEqual({ absolute: 5, relative: 1, flag: 'differs' });
    // 50 → 45 µs is exactly -10%: within the threshold
    expect(open.cells[1]!.change.duration.flag).toBe('same');
    expect(open.flagged).toBe(true);

    const http = rowNamed(t.rows, 'HTTPCLIENTREQUEST');
    expect(http.cells[0]).toMatchObject({ present: false, count: 0 });
    expect(http.cells[1]!.change.count).toEqual({ absolute: 6, relative: Infinity, flag: 'new' });
    expect(http.cells[1]!.change.duration.flag).toBe('new');
    expect(http.phases).toEqual(['b', 'e']);

    const gc = rowNamed(t.rows, 'V8.GCScavenger');
    expect(gc.cells[1]).toMatchObject({ present: false, count: 0 });
    expect(gc.cells[1]!.change.count).toEqual({ absolute: -4, relative: -1, flag: 'gone' });
    expect(rowNamed(t.rows, 'thread_name').flagged).toBe(false);
  });

  it('has a totals row compared like any other', () => {
    expect(t.total.name).toBe('Total');
    expect(t.total.cells.map((c) => [c.count, c.bytes, c.duration])).toEqual([
      [31, 3000, 650],
      [40, 3880, 655],
    ]);
    expect(t.total.cells[1]!.change.bytes.flag).toBe('differs');
    expect(t.total.cells[1]!.change.count.flag).toBe('differs');
    expect(t.total.cells[1]!.change.duration.flag).toBe('same');
    expect(t.total.phases).toEqual(['X', 'b', 'e', 'M']);
  });

  it('totals the rows a filter kept, flagged against the baseline like a row', () => {
    expect(totalOf(t, t.rows)).toBe(t.total);
    const fs = totalOf(t, filterRows(t.rows, 'fs.sync').rows);
    expect(fs.cells.map((c) => c.count)).toEqual([5, 10]);
    expect(fs.cells[1]!.change.count.flag).toBe('differs');
    expect(fs.phases).toEqual(['X']);
    expect(totalOf(t, []).cells.map((c) => c.count)).toEqual([0, 0]);
  });

  it('takes its threshold from the caller', () => {
    const strict = buildStatsTable(
      [
        { label: 'base', stats: BASE },
        { label: 'agent', stats: RUN },
      ],
      { threshold: 0.05 },
    );
    expect(rowNamed(strict.rows, 'PROMISE').cells[1]!.change.count.flag).toBe('differs');
    const loose = buildStatsTable(
      [
        { label: 'base', stats: BASE },
        { label: 'agent', stats: RUN },
      ],
      { threshold: 2 },
    );
    expect(rowNamed(loose.rows, 'fs.sync.open').cells[1]!.change.count.flag).toBe('same');
    expect(rowNamed(loose.rows, 'HTTPCLIENTREQUEST').cells[1]!.change.count.flag).toBe('new');
  });

  it('keeps a row only a third run has, unflagged where neither side has it', () => {
    const third = [stat('node', 'UDPWRAP', 'b', 1, 80)];
    const t3 = buildStatsTable([
      { label: 'base', stats: BASE },
      { label: 'agent', stats: RUN },
      { label: 'other', stats: third },
    ]);
    const udp = rowNamed(t3.rows, 'UDPWRAP');
    expect(udp.cells.map((c) => c.change.count.flag)).toEqual(['baseline', 'same', 'new']);
    expect(changeTitle(udp.cells[1]!, 'count')).toBe('no events in either run');
    expect(rowNamed(t3.rows, 'thread_name').cells[2]!.change.count.flag).toBe('gone');
  });

  it('groups the same way for every run', () => {
    const byPhase = buildStatsTable(
      [
        { label: 'base', stats: BASE },
        { label: 'agent', stats: RUN },
      ],
      { grouping: 'phase' },
    );
    expect(byPhase.rows.map((r) => [r.phase, ...r.cells.map((c) => c.count)])).toEqual([
      ['b', 10, 14],
      ['e', 10, 14],
      ['X', 9, 10],
      ['M', 2, 2],
    ]);
  });
});

describe('sorting and filtering', () => {
  const t = buildStatsTable([
    { label: 'base', stats: BASE },
    { label: 'agent', stats: RUN },
  ]);
  const names = (rows: StatsRow[]) => rows.map((r) => r.name);

  it('sorts by a label either way', () => {
    expect(names(sortRows(t.rows, { key: { by: 'name' }, descending: false }))).toEqual([
      'fs.sync.open',
      'HTTPCLIENTREQUEST',
      'PROMISE',
      'thread_name',
      'V8.GCScavenger',
    ]);
    expect(names(sortRows(t.rows, { key: { by: 'category' }, descending: true }))[0]).toBe('V8.GCScavenger');
  });

  it("sorts by a run's values and by its change, new types first and gone ones last", () => {
    expect(names(sortRows(t.rows, { key: { by: 'value', run: 1, measure: 'count' }, descending: true }))).toEqual([
      'PROMISE',
      'fs.sync.open',
      'HTTPCLIENTREQUEST',
      'thread_name',
      'V8.GCScavenger',
    ]);
    expect(names(sortRows(t.rows, { key: { by: 'change', run: 1, measure: 'count' }, descending: true }))).toEqual([
      'HTTPCLIENTREQUEST',
      'fs.sync.open',
      'PROMISE',
      'thread_name',
      'V8.GCScavenger',
    ]);
    expect(names(sortRows(t.rows, { key: { by: 'change', run: 1, measure: 'count' }, descending: false }))[0]).toBe('V8.GCScavenger');
  });

  it('filters by text or /regex/ against name and category', () => {
    expect(names(filterRows(t.rows, 'fs.SYNC').rows)).toEqual(['fs.sync.open']);
    expect(names(filterRows(t.rows, 'async_hooks').rows)).toEqual(['PROMISE', 'HTTPCLIENTREQUEST']);
    expect(names(filterRows(t.rows, '/^(PROMISE|thread)/').rows)).toEqual(['PROMISE', 'thread_name']);
    expect(filterRows(t.rows, '  ').rows).toHaveLength(5);
    const bad = filterRows(t.rows, '/(/');
    expect(bad.error).toMatch(/invalid regular expression/);
    expect(bad.rows).toHaveLength(5);
    const phases = buildStatsTable([{ label: 'base', stats: BASE }], { grouping: 'phase' });
    expect(filterRows(phases.rows, 'async').rows.map((r) => r.phase)).toEqual(['b', 'e']);
  });
});

describe('exports', () => {
  const t = buildStatsTable([
    { label: 'base', stats: BASE },
    { label: 'agent, "v2"', stats: RUN },
  ]);

  it('CSV: RFC 4180 quoting, CRLF, plain numbers, status per run, totals last', () => {
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(12)).toBe('12');
    const lines = statsCsv(t).split('\r\n');
    expect(lines[0]).toBe(
      'category,name,phases,base count,base bytes,base duration summed (us),base wall time covered (us),' +
        '"agent, ""v2"" count","agent, ""v2"" bytes","agent, ""v2"" duration summed (us)","agent, ""v2"" wall time covered (us)",' +
        '"agent, ""v2"" status"',
    );
    expect(lines).toContain(`"${FS}",fs.sync.open,X,5,500,50,50,10,1000,45,45,differs`);
    expect(lines).toContain(`"${ASYNC}",HTTPCLIENTREQUEST,b e,0,0,0,0,6,590,90,90,new`);
    expect(lines).toContain('v8,V8.GCScavenger,X,4,400,100,100,0,0,0,0,gone');
    // Every span here starts at 0: the total covers the longest, not their sum.
    expect(lines.at(-2)).toBe('Total,,X b e M,31,3000,650,500,40,3880,655,520,differs');
    expect(lines.at(-1)).toBe('');
  });

  it('CSV and Markdown keep names from a file from becoming formulas or markup', () => {
    const names = ['=HYPERLINK("http://evil","click")', '+cmd', '-2+3', '@SUM(A1)'];
    const hostile = buildStatsTable([{ label: '=base', stats: names.map((n) => stat('@cat', n, 'X', 1, 10, 5)) }]);
    const lines = statsCsv(hostile).split('\r\n');
    expect(lines[0]).toBe("category,name,phases,'=base count,'=base bytes,'=base duration summed (us),'=base wall time covered (us)");
    expect(lines.slice(1, 5).sort()).toEqual(
      [
        `'@cat,"'=HYPERLINK(""http://evil"",""click"")",X,1,10,5,5`,
        "'@cat,'+cmd,X,1,10,5,5",
        "'@cat,'-2+3,X,1,10,5,5",
        "'@cat,'@SUM(A1),X,1,10,5,5",
      ].sort(),
    );
    // Every field a spreadsheet reads starts with something other than a formula sign.
    for (const line of lines.filter(Boolean)) for (const field of line.split(',')) expect(field).not.toMatch(/^[=+\-@]/);
    const md = statsMarkdown(buildStatsTable([{ label: 'a<b>', stats: [stat('c', 'x`y|z<img src=q>', 'X', 1, 10)] }]));
    expect(md).toContain('| `c` | `` x`y\\|z<img src=q> `` |');
    expect(md).toContain('a\\<b\\>: events');
  });

  it('CSV of the rows as shown: filtered and sorted', () => {
    const shown = sortRows(filterRows(t.rows, 'PROMISE|open').rows, { key: { by: 'name' }, descending: false });
    // as plain text "PROMISE|open" matches nothing: header, totals and the final line end
    expect(statsCsv(t, shown).split('\r\n')).toHaveLength(3);
    const two = sortRows(filterRows(t.rows, '/PROMISE|open/').rows, { key: { by: 'name' }, descending: false });
    expect(
      statsCsv(t, two)
        .split('\r\n')
        .slice(1, 3)
        .map((l) => /,(fs\.sync\.open|PROMISE),/.exec(l)?.[1]),
    ).toEqual(['fs.sync.open', 'PROMISE']);
  });

  it('Markdown: aligned numbers, flagged figures bold with their change, a reading note', () => {
    const md = statsMarkdown(t, t.rows, ['count']);
    const lines = md.trim().split('\n');
    expect(lines[0]).toBe('| category | name | phases | base: events | agent, "v2": events |');
    expect(lines[1]).toBe('|---|---|---|---:|---:|');
    expect(lines).toContain(`| \`${FS}\` | \`fs.sync.open\` | X | 5 | **10** (+100%) |`);
    expect(lines).toContain(`| \`${ASYNC}\` | \`HTTPCLIENTREQUEST\` | b e | 0 | **6** (new) |`);
    expect(lines).toContain('| `v8` | `V8.GCScavenger` | X | 4 | 0 (gone) |');
    expect(lines).toContain(`| \`${ASYNC}\` | \`PROMISE\` | b e | 20 | 22 |`);
    expect(lines).toContain('| **Total** |  | X b e M | 31 | **40** (+29%) |');
    expect(lines.at(-1)).toMatch(/^Baseline: base\. In bold: figures more than 10% away/);
    expect(statsMarkdown(buildStatsTable([{ label: 'a|b', stats: [stat('c|d', 'n`m', 'X', 1, 10)] }]))).toContain(
      '| `c\\|d` | `` n`m `` |',
    );
  });

  it('formats changes and tooltips', () => {
    const open = rowNamed(t.rows, 'fs.sync.open').cells[1]!;
    expect(formatChange(open.change.count)).toBe('+100%');
    expect(changeTitle(open, 'count')).toBe('+100% vs baseline (+5)');
    expect(changeTitle(open, 'duration')).toBe('-10% vs baseline (-5 µs)');
    expect(changeTitle(open, 'bytes')).toBe('+100% vs baseline (+500 B)');
    expect(formatChange({ absolute: 1, relative: 0.004, flag: 'same' })).toBe('+0.4%');
    expect(formatChange({ absolute: -1, relative: -0.123, flag: 'differs' })).toBe('-12.3%');
    expect(formatChange({ absolute: 1, relative: 1.234, flag: 'differs' })).toBe('+123%');
  });
});

/** Events per (cat, name), counted without Flamelens: gunzip, JSON.parse, a Map. */
function independentCount(path: string): Map<string, { count: number; bytes: number }> {
  const events = (JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: Record<string, unknown>[] }).traceEvents;
  const out = new Map<string, { count: number; bytes: number }>();
  for (const e of events) {
    const k = `${String(e.cat ?? '')}\u0000${String(e.name ?? '')}`;
    const c = out.get(k) ?? { count: 0, bytes: 0 };
    c.count++;
    // Node writes each event as JSON.stringify would (checked in trace-events.test.ts).
    c.bytes += Buffer.byteLength(JSON.stringify(e));
    out.set(k, c);
  }
  return out;
}

describe('on the real sample traces', () => {
  const path = (run: string) => fixturePath(`samples/${run}/node_trace.1.log.gz`);
  const stats = async (run: string) => (await importProfile(fileSource(path(run)))).traceStats!;

  it('counts what an independent count finds and shows what dd-trace adds', async () => {
    const t = buildStatsTable([
      { label: 'baseline', stats: await stats('baseline') },
      { label: 'ddtrace', stats: await stats('ddtrace') },
    ]);
    for (const [i, run] of ['baseline', 'ddtrace'].entries()) {
      const want = independentCount(path(run));
      const got = new Map(
        t.rows.filter((r) => r.cells[i]!.present).map((r) => [r.key, { count: r.cells[i]!.count, bytes: r.cells[i]!.bytes }]),
      );
      expect(got).toEqual(want);
    }
    expect(rowNamed(t.rows, 'PROMISE').cells[0]!.count).toBe(39714);

    const fsSync = t.rows.filter((r) => r.name.startsWith('fs.sync.'));
    const sum = (i: number) => fsSync.reduce((n, r) => n + r.cells[i]!.count, 0);
    expect(sum(1) / sum(0)).toBeGreaterThan(1.7);
    expect(sum(1) / sum(0)).toBeLessThan(2.5);
    for (const name of ['fs.sync.lstat', 'fs.sync.open', 'fs.sync.read', 'fs.sync.close'])
      expect(rowNamed(t.rows, name).cells[1]!.change.count.flag).toBe('differs');
    for (const name of ['HTTPCLIENTREQUEST', 'UDPWRAP', 'CustomGC', 'TCPCONNECTWRAP', 'fs.sync.readdir'])
      expect(rowNamed(t.rows, name).cells[1]!.change.count.flag).toBe('new');
    // The bulk of the traffic is the same in both runs.
    expect(rowNamed(t.rows, 'TickObject').cells[1]!.change.count.flag).toBe('same');
    expect(t.total.cells.map((c) => c.count)).toEqual([464849, 468622]);
  });

  it('sums and covers span durations as an independent pairing of the raw events does', async () => {
    for (const run of ['baseline', 'ddtrace']) {
      const want = independentSpanFigures(path(run));
      const rows = groupStats(await stats(run));
      const timed = rows.filter((r) => r.duration > 0);
      expect(new Set(timed.map((r) => r.key))).toEqual(new Set([...want].filter(([, f]) => f.summed > 0).map(([k]) => k)));
      for (const r of timed) {
        const f = want.get(r.key)!;
        expect(r.duration).toBeCloseTo(f.summed, 3);
        expect(r.covered).toBeCloseTo(f.covered, 3);
        expect(r.covered).toBeLessThanOrEqual(r.duration + 1e-6);
      }
    }
    // dd-trace's promises: 1,297.7 s of lifetimes, alive during 3.6 s of the 4.8 s trace.
    const promise = groupStats(await stats('ddtrace')).find((r) => r.name === 'PROMISE')!;
    expect(promise.duration / 1e6).toBeCloseTo(1297.7, 1);
    expect(promise.covered / 1e6).toBeCloseTo(3.64, 2);
  });
});
