import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { diffProfiles } from '../../shared/diff/diff';
import { weighByDefault } from '../../shared/model/weigh';
import { fixturePath } from '../../test/support/files';
import { type RawNode, rawDurations, rawOnStack, readV8Profiles } from '../../test/support/v8-raw';
import { DIFF_HELP, diffCommand } from './diff';
import { CliError } from './errors';
import { load } from './load';
import { type Captured, capture } from '../../test/support/cli-output';

const BASE = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
const RUN = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');
const HEAP = fixturePath('samples/baseline/Heap.20261121.233010.6213.0.001.heapprofile');

function run(...args: string[]): Promise<Captured> {
  return capture((out) => diffCommand.run(args, out));
}

/** The CliError a command line fails with. */
async function failure(...args: string[]): Promise<CliError> {
  const r = await run(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(CliError);
  expect((r as CliError).status).toBe(1);
  expect((r as CliError).message.split('\n')).toHaveLength(1);
  return r as CliError;
}

afterEach(() => vi.restoreAllMocks());

const tmp = mkdtempSync(join(tmpdir(), 'flamelens-diff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
function foldedFile(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, `${text}\n`);
  return p;
}

/**
 * Shares computed straight from the .cpuprofile JSON, without Flamelens' importer: the fraction
 * of samples whose node or an ancestor has a URL under node_modules/dd-trace/ (inclusive), and
 * whose own node has (self).
 */
function rawShares(path: string): { samples: number; inclusive: number; self: number } {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: { id: number; callFrame: { url: string }; children?: number[] }[];
    samples: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const agent = (id: number) => byId.get(id)!.callFrame.url.includes('node_modules/dd-trace/');
  let inclusive = 0;
  let self = 0;
  for (const s of prof.samples) {
    if (agent(s)) self++;
    for (let id: number | undefined = s; id !== undefined; id = parent.get(id)) {
      if (agent(id)) {
        inclusive++;
        break;
      }
    }
  }
  return { samples: prof.samples.length, inclusive: inclusive / prof.samples.length, self: self / prof.samples.length };
}

/** Samples of V8's (idle) node, counted straight from the JSON. */
function rawIdleCount(path: string): number {
  const prof = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string } }[];
    samples: number[];
  };
  const idle = new Set(prof.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  return prof.samples.filter((s) => idle.has(s)).length;
}

/** JSON rounds shares to 4 decimals. */
const near4 = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(0.00005 + 1e-12);

interface Fn {
  name: string;
  file: string;
  line: number;
  baseline: { self: number; total: number; selfShare: number; totalShare: number };
  run: { self: number; total: number; selfShare: number; totalShare: number };
  delta: { self: number; total: number; selfShare: number; totalShare: number };
  status: string;
}

describe('flamelens diff --json on the real samples (baseline vs dd-trace)', () => {
  it('gives the figures of sample counts with idle samples, shares checked against the raw profiles', async () => {
    const r = await run(BASE, RUN, '--match', 'dd-trace', '--json', '--weight', 'samples', '--idle', 'include', '--normalize', 'relative');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual(['unit', 'normalize', 'idle', 'change', 'baseline', 'run', 'functions', 'entry', 'warnings']);
    expect(j.entry).toEqual({ baseline: 'app/server-baseline.js', run: 'app/server-ddtrace.js' });
    expect([j.unit, j.normalize, j.idle]).toEqual(['samples', 'relative', 'included']);
    expect(Object.keys(j.baseline)).toEqual(['file', 'name', 'total', 'idle', 'match']);
    expect(j.baseline.file).toBe(BASE);
    expect(j.run.file).toBe(RUN);
    // named as the app names runs: by the folders that tell the paths apart
    expect([j.baseline.name, j.run.name]).toEqual(['baseline', 'ddtrace']);

    const rawBase = rawShares(BASE);
    const rawRun = rawShares(RUN);
    expect(j.baseline.total).toBe(rawBase.samples);
    expect(j.run.total).toBe(rawRun.samples);
    near4(j.change, rawRun.samples / rawBase.samples - 1);
    expect(j.baseline.match).toEqual({ inclusive: 0, self: 0 });
    expect(j.run.match.inclusive).toBeGreaterThan(0.3);
    near4(j.run.match.inclusive, rawRun.inclusive);
    near4(j.run.match.self, rawRun.self);
    expect(rawRun.self).toBeGreaterThan(0.1);

    const fns = j.functions as Fn[];
    expect(fns).toHaveLength(20);
    const scale = j.run.total / j.baseline.total;
    for (const f of fns) {
      expect(Object.keys(f)).toEqual(['name', 'file', 'line', 'baseline', 'run', 'delta', 'status']);
      expect(['new', 'removed', 'changed']).toContain(f.status);
      // relative: delta in samples with the baseline scaled to the run's total (difffolded.pl -n)
      expect(Math.abs(f.delta.total - (f.run.total - f.baseline.total * scale))).toBeLessThanOrEqual(0.005 + 1e-9);
      near4(f.run.totalShare, f.run.total / j.run.total);
      near4(f.baseline.totalShare, f.baseline.total / j.baseline.total);
      expect(Math.abs(f.delta.totalShare - (f.run.totalShare - f.baseline.totalShare))).toBeLessThanOrEqual(0.0002);
      if (f.file.includes('node_modules/dd-trace/')) expect(f.status).toBe('new');
    }
    const sizes = fns.map((f) => Math.abs(f.delta.totalShare));
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]! + 0.0001);
    const emit = fns.find((f) => f.name === 'emit' && f.file.endsWith('datadog-instrumentations/src/http/server.js'))!;
    expect(emit).toMatchObject({ status: 'new', baseline: { self: 0, total: 0 }, delta: { self: emit.run.self, total: emit.run.total } });
    expect(emit.line).toBeGreaterThan(0);
  });

  it('leaves match out without --match, honours --top and --normalize absolute', async () => {
    const r = await run(BASE, RUN, '--json', '--top', '5', '--normalize', 'absolute');
    const j = JSON.parse(r.out);
    expect(j.normalize).toBe('absolute');
    expect(j.baseline.match).toBeUndefined();
    expect(j.run.match).toBeUndefined();
    expect(j.functions).toHaveLength(5);
    for (const f of j.functions as Fn[]) {
      expect(f.delta.total).toBe(f.run.total - f.baseline.total);
      expect(f.delta.self).toBe(f.run.self - f.baseline.self);
    }
  });

  it('matches the entry scripts unless --no-match-entry, and says so', async () => {
    const entryRows = (fns: Fn[]) => fns.filter((f) => /server-(baseline|ddtrace)\.js$/.test(f.file)).map((f) => f.status);
    const matched = JSON.parse((await run(BASE, RUN, '--json', '--top', '0')).out);
    expect(entryRows(matched.functions)).toEqual(['changed']);
    const apart = JSON.parse((await run(BASE, RUN, '--json', '--top', '0', '--no-match-entry')).out);
    expect(apart.entry).toBeNull();
    expect(entryRows(apart.functions).sort()).toEqual(['new', 'removed']);
    const text = (await run(BASE, RUN)).out;
    expect(text).toMatch(
      /^ {2}entry scripts matched: app\/server-ddtrace\.js as app\/server-baseline\.js \(--no-match-entry keeps them apart\)$/m,
    );
    expect((await run(BASE, RUN, '--no-match-entry')).out).not.toMatch(/entry scripts matched/);
  });

  it('leaves idle samples out by default, and says so', async () => {
    const j = JSON.parse((await run(BASE, RUN, '--json', '--match', 'dd-trace', '--weight', 'samples')).out);
    expect(j.idle).toBe('excluded');
    expect(j.baseline.idle).toBeGreaterThan(0);
    // the flag of earlier versions says the same
    expect(JSON.parse((await run(BASE, RUN, '--json', '--exclude-idle', '--match', 'dd-trace', '--weight', 'samples')).out)).toEqual(j);
    const all = JSON.parse((await run(BASE, RUN, '--json', '--weight', 'samples', '--idle', 'include')).out);
    expect(all.idle).toBe('included');
    expect(j.baseline.total).toBe(all.baseline.total - j.baseline.idle);
    expect(j.run.match.inclusive).toBeGreaterThan(all.run.match?.inclusive ?? 0);
    expect(j.functions.some((f: Fn) => f.name === '(idle)')).toBe(false);
  });
});

/**
 * Busy CPU time straight from a .cpuprofile's JSON, without Flamelens' importer (test/support/v8-raw):
 * samples at startTime plus the running sum of timeDeltas, put in time order (stably), each
 * lasting until the next, the last one the mean interval; samples of V8's (idle) node left out.
 * `onStack` keeps only samples with a matching frame on the stack.
 */
function rawBusyTime(path: string, onStack?: (n: RawNode) => boolean): number {
  const p = readV8Profiles(path)[0]!;
  const w = rawDurations(p);
  let busy = 0;
  p.ids.forEach((id, i) => {
    if (p.nodes.get(id)!.functionName !== '(idle)' && (!onStack || rawOnStack(p, id, onStack))) busy += w[i]!;
  });
  return busy;
}

const rawAgentTime = (path: string) => rawBusyTime(path, (n) => n.url.includes('node_modules/dd-trace/'));

describe('flamelens diff weighs V8 samples by time', () => {
  it('reads about +259% CPU time for dd-trace, as computed from the raw profiles, and +262% by sample count', async () => {
    const busyBase = rawBusyTime(BASE);
    const busyRun = rawBusyTime(RUN);
    const j = JSON.parse((await run(BASE, RUN, '--json')).out);
    expect([j.unit, j.idle]).toEqual(['microseconds', 'excluded']);
    expect(Math.abs(j.baseline.total - busyBase)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(j.run.total - busyRun)).toBeLessThanOrEqual(0.01);
    near4(j.change, busyRun / busyBase - 1);
    expect(Math.round(j.change * 100)).toBe(259);
    // the shared diff, on the profiles as the app weighs them, says the same
    const [b, r] = await Promise.all([load(BASE), load(RUN)]);
    const d = diffProfiles(weighByDefault(b), weighByDefault(r), { excludeIdle: true });
    expect(d.unit).toBe('microseconds');
    expect(d.change).toBeCloseTo(busyRun / busyBase - 1, 9);

    const counted = JSON.parse((await run(BASE, RUN, '--json', '--weight', 'samples')).out);
    expect(counted.unit).toBe('samples');
    expect(Math.round(counted.change * 100)).toBe(262);
  });

  it('refuses a weighing a file cannot have', async () => {
    expect((await failure(BASE, HEAP, '--weight', 'time')).message).toContain(`--weight time: ${HEAP} has no sample times`);
    expect((await failure(BASE, RUN, '--weight', 'bytes')).message).toMatch(/--weight must be time or samples, not "bytes"/);
  });
});

describe('flamelens diff: one total, busy CPU', () => {
  it("states the agent's share of busy CPU by default: 81.7% of busy samples, 65% of all", async () => {
    const counted = JSON.parse((await run(BASE, RUN, '--json', '--match', 'dd-trace', '--weight', 'samples')).out);
    const all = JSON.parse((await run(BASE, RUN, '--json', '--match', 'dd-trace', '--weight', 'samples', '--idle', 'include')).out);
    const raw = rawShares(RUN);
    const rawIdle = rawIdleCount(RUN);
    expect(counted.run.total).toBe(raw.samples - rawIdle);
    near4(counted.run.match.inclusive, (raw.inclusive * raw.samples) / (raw.samples - rawIdle));
    expect(Math.round(counted.run.match.inclusive * 1000)).toBe(817);
    expect(Math.round(all.run.match.inclusive * 100)).toBe(65);
    // by time, the default, the share is of busy CPU time
    const timed = JSON.parse((await run(BASE, RUN, '--json', '--match', 'dd-trace')).out);
    expect([timed.unit, timed.idle]).toEqual(['microseconds', 'excluded']);
    near4(timed.run.match.inclusive, rawAgentTime(RUN) / rawBusyTime(RUN));
  });

  it('says which total the text report is of', async () => {
    const r = await run(BASE, RUN, '--match', 'dd-trace');
    expect(r.out.split('\n').slice(0, 2)).toEqual([
      '+259% CPU time for the same work',
      '  totals of busy CPU: ddtrace 2.21 s, baseline 618 ms',
    ]);
    expect(r.out).toMatch(/idle samples left out: 892 ms in the baseline, 578 ms in the run \(--idle include counts them\)/);
    expect(r.out).toMatch(/"dd-trace" is on the stack in 0\.0% of the baseline's busy CPU and 80\.7% of the run's/);
    const inc = await run(BASE, RUN, '--idle', 'include');
    expect(inc.out.split('\n')[0]).toBe('+85% time on the thread for the same work (idle included)');
  });

  it('refuses a bad --idle', async () => {
    expect((await failure(BASE, RUN, '--idle', 'maybe')).message).toMatch(/--idle must be include or exclude, not "maybe"/);
    expect((await failure(BASE, RUN, '--idle', 'include', '--exclude-idle')).message).toMatch(/contradicts/);
  });
});

describe('flamelens diff on tiny folded files', () => {
  const base = foldedFile('base.folded', 'main;a 4\nmain;b 6');
  const runF = foldedFile('run.folded', 'main;a 12\nmain;c 8');

  it('gives difffolded.pl -n numbers in relative mode', async () => {
    const j = JSON.parse((await run(base, runF, '--json', '--normalize', 'relative')).out);
    expect(j.change).toBe(1);
    const by = Object.fromEntries((j.functions as Fn[]).map((f) => [f.name, [f.status, f.delta.total, f.delta.totalShare]]));
    // -n scales the baseline by 20/10: a 8 → 12, b 12 → 0, c 0 → 8; main unchanged
    expect(by).toEqual({ b: ['removed', -12, -0.6], c: ['new', 8, 0.4], a: ['changed', 4, 0.2] });
  });

  it('compares absolute weights unless told otherwise: the runs did the same work', async () => {
    const j = JSON.parse((await run(base, runF, '--json')).out);
    expect(j.normalize).toBe('absolute');
    const by = Object.fromEntries((j.functions as Fn[]).map((f) => [f.name, [f.status, f.delta.total]]));
    expect(by).toEqual({ main: ['changed', 10], a: ['changed', 8], c: ['new', 8], b: ['removed', -6] });
  });

  it('prints a readable table by default', async () => {
    const r = await run(base, runF);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('+100% CPU time for the same work');
    expect(r.out).toMatch(/^changed\s+\+8 samples\s+\+8 samples\s+4 samples\s+12 samples\s+a$/m);
    expect(r.out).toMatch(/^new\s+\+8 samples/m);
    expect(r.out).toMatch(/^removed\s+−6 samples/m);
  });

  it('warns on stderr when the files come from different producers', async () => {
    const r = await run(base, RUN, '--json');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^flamelens: warning: the files come from different producers \(folded, cpuprofile\)/);
    expect(() => JSON.parse(r.out)).not.toThrow();
  });

  it('says so when nothing changed', async () => {
    const r = await run(base, base);
    expect(r.out).toMatch(/^±0\.0% CPU time for the same work$/m);
    expect(r.out).toMatch(/no function changed beyond the noise threshold/);
  });
});

describe('flamelens diff --markdown', () => {
  it('prints a report with the headline, the match shares and a function table', async () => {
    const r = await run(
      BASE,
      RUN,
      '--markdown',
      '--match',
      'dd-trace',
      '--top',
      '10',
      '--weight',
      'samples',
      '--idle',
      'include',
      '--normalize',
      'relative',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# Flamelens diff$/m);
    expect(r.out).toMatch(/^\*\*\+82% samples for the same work \(idle included\)\*\*$/m);
    expect(r.out).toMatch(/without them: \+262% CPU time \(--idle exclude\)/);
    expect(r.out).toMatch(/^\| `dd-trace` on the stack \| 0\.0% \| 65\.0% \|$/m);
    expect(r.out).toMatch(/^\| name \| `baseline` \| `ddtrace` \|$/m);
    expect(r.out).toMatch(/^- totals of .*: ddtrace [\d,.]+ \S+, baseline [\d,.]+ \S+$/m);
    expect(r.out).toMatch(/^## Top 10 functions by change$/m);
    const rows = r.out.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows).toHaveLength(10);
    expect(r.out).toMatch(
      /^\| \d+ \| `emit` \| `node_modules\/dd-trace\/packages\/datadog-instrumentations\/src\/http\/server\.js:\d+` \| new \| 0\.0% \| 28\.8% \| \+28\.82 pp \|/m,
    );
    for (const row of rows) expect(row.split(/(?<!\\)\|/)).toHaveLength(10);
  });

  it('calls it CPU time once idle samples are left out', async () => {
    const r = await run(BASE, RUN, '--markdown', '--exclude-idle', '--weight', 'samples');
    expect(r.out).toMatch(/^\*\*\+262% CPU time for the same work\*\*$/m);
    expect(r.out).toMatch(/^\| idle \(left out\) \| 755 samples \| 468 samples \|$/m);
  });
});

describe('flamelens diff --fail-above', () => {
  it('exits 2 with the reason on stderr when the run costs more than PERCENT over the baseline', async () => {
    const r = await run(BASE, RUN, '--fail-above', '50', '--weight', 'samples', '--idle', 'include');
    expect(r.code).toBe(2);
    // (the sample runs are short: a warning says so first)
    expect(r.err).toMatch(/^flamelens: warning: the runs are too short to show a 5% change/);
    expect(r.err.split('\n').filter((l) => l && !l.includes('warning:'))).toEqual([
      "flamelens: the run's total is 81.8% over the baseline's (2,283 samples vs 1,256 samples), more than --fail-above 50%",
    ]);
    expect(r.out).toMatch(/for the same work/);
  });

  it('exits 0 within the limit, and follows --idle', async () => {
    expect((await run(BASE, RUN, '--fail-above', '90%', '--json', '--idle', 'include')).code).toBe(0);
    expect((await run(BASE, RUN, '--fail-above', '90', '--exclude-idle')).code).toBe(2);
    expect((await run(BASE, RUN, '--fail-above', '263', '--exclude-idle', '--weight', 'samples')).code).toBe(0);
    expect((await run(BASE, RUN, '--fail-above', '260', '--exclude-idle')).code).toBe(0);
    expect((await run(BASE, RUN, '--fail-above', '258', '--exclude-idle')).code).toBe(2);
    // a faster run passes a gate of 0
    expect((await run(RUN, BASE, '--fail-above', '0')).code).toBe(0);
    expect((await run(BASE, RUN, '--fail-above', '260')).code).toBe(0);
    expect((await run(BASE, RUN, '--fail-above', '258')).code).toBe(2);
  });
});

describe('flamelens diff arguments', () => {
  it('prints help', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain(DIFF_HELP.synopsis);
    expect(DIFF_HELP.name).toBe('diff');
  });

  it('fails with one line for bad arguments', async () => {
    expect((await failure(BASE)).message).toMatch(/exactly two files/);
    expect((await failure(BASE, RUN, RUN)).message).toMatch(/exactly two files/);
    expect((await failure(BASE, RUN, '--normalize', 'log')).message).toMatch(/--normalize must be relative or absolute, not "log"/);
    expect((await failure(BASE, RUN, '--top=-1')).message).toMatch(/--top must be a whole number/);
    expect((await failure(BASE, RUN, '--top', '-1')).message).toMatch(/ambiguous.*--top=-XYZ/);
    expect((await failure(BASE, RUN, '--top', '2.5')).message).toMatch(/--top must be a whole number/);
    expect((await failure(BASE, RUN, '--json', '--markdown')).message).toMatch(/one of --json and --markdown/);
    expect((await failure(BASE, RUN, '--fail-above', 'lots')).message).toMatch(/--fail-above must be a percentage/);
    expect((await failure(BASE, RUN, '--threshold=-1')).message).toMatch(/--threshold must be/);
    expect((await failure(BASE, RUN, '--match', '/(/')).message).toMatch(/--match \/\(\/: invalid regular expression/);
    expect((await failure(BASE, RUN, '--match', ' ')).message).toMatch(/--match needs a PATTERN/);
    expect((await failure(BASE, RUN, '--frobnicate')).message).toMatch(/frobnicate/);
  });

  it('names a missing file, and files measured differently', async () => {
    expect((await failure('/nope/base.cpuprofile', RUN)).message).toMatch(/\/nope\/base\.cpuprofile: no such file/);
    const e = await failure(BASE, HEAP);
    expect(e.message).toContain(`cannot compare ${BASE} (measured in samples) with ${HEAP} (measured in bytes)`);
  });
});
