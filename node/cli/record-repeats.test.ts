/**
 * Repeated profiled runs of a real server (the bundled sample, `assets/samples/server.mjs`), as a
 * person would record them: the wrapper's frames cost more with an interval above 0 and are
 * flagged, the server's own handler is not, nothing else gains share, and a variant recorded
 * twice shows no more changes than the false discovery rate allows.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWorkspace } from '../../shared/workspace/workspace-file';
import { capture, captureFailure } from '../../test/support/cli-output';
import { diffCommand } from './diff';
import { recordCommand } from './record';

const dir = mkdtempSync(join(tmpdir(), 'flamelens-record-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const server = resolve('assets/samples/server.mjs');

interface Report {
  repeats?: { baseline: number; run: number };
  functions: {
    name: string;
    file: string;
    status: string;
    delta: { self: number };
    interval?: { low: number; high: number };
    shareInterval?: { low: number; high: number };
    significant?: boolean;
  }[];
  significance?: { basis: string; tested: number; floorSamples: number };
}

describe('flamelens record --profile-repeat', () => {
  it('records repeats of each kind in a folder of their own, which diff compares with intervals', async () => {
    const out = join(dir, 'study');
    const r = await captureFailure((o) =>
      recordCommand.run(
        [
          ...['--out', out, '--repeat', '3', '--profile-repeat', '5', '--requests', '2000', '--capture', 'cpu'],
          ...['--variant', `baseline=node ${server}`, '--variant', `same=node ${server}`, '--variant', `wrapped=node ${server} --wrap`],
        ],
        o,
      ),
    );
    expect(r.error).toBeUndefined();
    expect(r.code).toBe(0);
    for (const v of ['baseline', 'same', 'wrapped'])
      expect(readdirSync(join(out, v, 'cpu')).filter((f) => /^CPU\..*\.cpuprofile$/.test(f))).toHaveLength(5);
    // the progress interleaves the profiled runs as it does the timed ones
    expect(
      r.err
        .split('\n')
        .filter((l) => l.startsWith('profiled run'))
        .slice(0, 4),
    ).toEqual(['profiled run 1/5: baseline', 'profiled run 1/5: same', 'profiled run 1/5: wrapped', 'profiled run 2/5: baseline']);

    const diff = async (a: string, b: string, ...more: string[]) =>
      JSON.parse(
        (await capture((o) => diffCommand.run([join(out, a, 'cpu'), join(out, b, 'cpu'), '--json', '--top', '0', ...more], o))).out,
      ) as Report;
    const own = (f: Report['functions'][number]) => f.file.endsWith('server.mjs');
    // weighed by time (the default) the wrapper (`traced`, made by `instrument`) costs more: its
    // interval lies above 0, and the server's own handler does not change beyond noise
    const timed = await diff('baseline', 'wrapped');
    expect(timed.repeats).toEqual({ baseline: 5, run: 5 });
    const tracedTime = timed.functions.find((f) => f.name === 'traced' && own(f))!;
    expect(tracedTime.status).toBe('new');
    expect(tracedTime.interval!.low).toBeGreaterThan(0);
    const helloTime = timed.functions.find((f) => f.name === 'hello' && own(f))!;
    expect(helloTime.interval!.low).toBeLessThan(0.2 * tracedTime.interval!.low);
    expect(helloTime.significant).toBe(false);
    // on a loaded machine a descheduled process's gap goes to the sample it interrupted, so the
    // verdicts are asked of sample counts, which such gaps do not stretch
    const wrapped = await diff('baseline', 'wrapped', '--weight', 'samples');
    const traced = wrapped.functions.find((f) => f.name === 'traced' && own(f))!;
    expect(traced.significant).toBe(true);
    expect(wrapped.functions.find((f) => f.name === 'hello' && own(f))!.significant).toBe(false);
    // only functions with enough samples are tested (of ~400, with a sample or two each)
    expect(wrapped.significance!.tested).toBeGreaterThan(0);
    expect(wrapped.significance!.tested).toBeLessThan(0.2 * wrapped.functions.length);
    // of the server's own frames only the wrapper's is flagged, and every verdict has its interval clear of 0
    expect(wrapped.functions.filter((f) => f.significant && own(f)).map((f) => f.name)).toEqual(['traced']);
    for (const f of [...timed.functions, ...wrapped.functions].filter((x) => x.significant))
      expect(f.interval!.low > 0 || f.interval!.high < 0).toBe(true);

    for (const weight of ['time', 'samples']) {
      const same = await diff('baseline', 'same', '--weight', weight);
      const flagged = same.functions.filter((f) => f.significant);
      expect(flagged.length).toBeLessThanOrEqual(Math.max(1, Math.floor(0.05 * same.functions.length)));
    }
    const same = await diff('baseline', 'same', '--weight', 'samples');
    const flagged = same.functions.filter((f) => f.significant);
    // what the runs showed, for the record: how many were tested and flagged
    console.info(
      `wrapped: ${wrapped.significance!.tested} tested, flagged ${wrapped.functions
        .filter((f) => f.significant)
        .map((f) => f.name)
        .join(', ')}; same: ${same.significance!.tested} tested, ${flagged.length} flagged`,
    );

    // the workspace shows each variant's mean, and keeps its repeats for the app's intervals
    const ws = await decodeWorkspace(readFileSync(join(out, 'comparison.flamelens')), 'comparison.flamelens');
    expect(ws.runs.map((x) => x.title)).toEqual(['baseline', 'same', 'wrapped']);
    expect(ws.runs[2]!.profile.meta.producer).toMatch(/mean of 5 runs/);
    for (const [i, v] of ['baseline', 'same', 'wrapped'].entries()) {
      const reps = ws.runs[i]!.repeats!;
      expect(reps.names).toEqual(
        readdirSync(join(out, v, 'cpu'))
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort(),
      );
      expect(reps.profiles).toHaveLength(5);
      const total = (p: { tree: { total: Float64Array } }) => p.tree.total[0]!;
      expect(total(ws.runs[i]!.profile)).toBeCloseTo(reps.profiles.reduce((n, p) => n + total(p), 0) / 5, 3);
    }
    expect(ws.runs[2]!.profile.frames.name).toContain('traced');
  }, 300_000);
});
