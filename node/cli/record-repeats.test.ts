/**
 * Repeated profiled runs of a real server (the bundled sample, `assets/samples/server.mjs`), as a
 * person would record them: the wrapper's frames cost more with an interval above 0 and the
 * server's own handler does not change beyond noise, and a variant recorded twice shows no more
 * changes than the false discovery rate allows.
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
    significant?: boolean;
  }[];
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

    const diff = async (a: string, b: string) =>
      JSON.parse(
        (await capture((o) => diffCommand.run([join(out, a, 'cpu'), join(out, b, 'cpu'), '--json', '--top', '0'], o))).out,
      ) as Report;
    const wrapped = await diff('baseline', 'wrapped');
    expect(wrapped.repeats).toEqual({ baseline: 5, run: 5 });
    const own = (f: Report['functions'][number]) => f.file.endsWith('server.mjs');
    // the wrapper (`traced`, made by `instrument`) costs more: its interval lies above 0; the
    // server's own handler does not change beyond noise
    const traced = wrapped.functions.find((f) => f.name === 'traced' && own(f))!;
    expect(traced.status).toBe('new');
    expect(traced.interval!.low).toBeGreaterThan(0);
    const hello = wrapped.functions.find((f) => f.name === 'hello' && own(f))!;
    expect(hello.interval!.low).toBeLessThan(0.2 * traced.interval!.low);
    expect(hello.significant).toBe(false);

    const same = await diff('baseline', 'same');
    const flagged = same.functions.filter((f) => f.significant);
    expect(flagged.length).toBeLessThanOrEqual(Math.max(1, Math.floor(0.05 * same.functions.length)));

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
