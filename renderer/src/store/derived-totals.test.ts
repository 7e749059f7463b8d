import { beforeAll, describe, expect, it } from 'vitest';
import { importProfile } from '../../../shared/import/import-profile';
import type { Profile } from '../../../shared/model/types';
import { weighByDefault } from '../../../shared/model/weigh';
import { folded } from '../../../test/support/folded';
import { fileSource, fixturePath } from '../../../test/support/files';
import { type RawProfile, rawDurations, rawOnStack, readV8Profiles } from '../../../test/support/v8-raw';
import { diffFor, searchFor, totalsFor } from './derived';

const BASE = fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile');
const RUN = fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile');

/** From the raw JSON: all, busy ((idle) left out) and dd-trace time (busy, with a dd-trace frame on the stack). */
function rawFigures(path: string): { all: number; busy: number; agent: number } {
  const p: RawProfile = readV8Profiles(path)[0]!;
  const w = rawDurations(p);
  let all = 0;
  let busy = 0;
  let agent = 0;
  p.ids.forEach((id, i) => {
    all += w[i]!;
    if (p.nodes.get(id)!.functionName === '(idle)') return;
    busy += w[i]!;
    if (rawOnStack(p, id, (n) => n.url.includes('node_modules/dd-trace/'))) agent += w[i]!;
  });
  return { all, busy, agent };
}

/** Samples not of V8's (idle) node, counted from the raw JSON. */
function rawBusyCount(path: string): number {
  const p = readV8Profiles(path)[0]!;
  return p.ids.filter((id) => p.nodes.get(id)!.functionName !== '(idle)').length;
}

let base: Profile;
let run: Profile;
beforeAll(async () => {
  // as the import worker hands them to the store
  base = weighByDefault(await importProfile(fileSource(BASE)));
  run = weighByDefault(await importProfile(fileSource(RUN)));
});

describe('one total: busy CPU', () => {
  it('is what the search share and the cost against the baseline are of', () => {
    const raw = rawFigures(RUN);
    const rawBase = rawFigures(BASE);
    const t = totalsFor(run);
    expect(t.all).toBeCloseTo(raw.all, 3);
    expect(t.busy).toBeCloseTo(raw.busy, 3);
    // the agent's share: of busy CPU, not of every sample (which would read 64%)
    const share = searchFor(run, 'node_modules/dd-trace/', 'highlight').share!;
    expect(share.inclusive).toBeCloseTo(raw.agent / raw.busy, 9);
    expect(raw.agent / raw.all).toBeLessThan(0.65);
    expect(share.inclusive).toBeGreaterThan(0.8);
    // the cost line compares the same busy totals
    const d = diffFor(base, run, 'relative', 0.1).diff!;
    expect(d.run.total).toBeCloseTo(t.busy, 3);
    expect(d.baseline.total).toBeCloseTo(totalsFor(base).busy, 3);
    expect(d.change).toBeCloseTo(raw.busy / rawBase.busy - 1, 9);
  });
});

describe('a run weighed by time against one that only counts samples', () => {
  it('is compared by sample count rather than refused', async () => {
    const stacks = await folded('main;handler 3\nmain;other 1', 'run.folded');
    const r = diffFor(base, stacks, 'relative', 0.1);
    expect(r.error).toBeUndefined();
    expect(r.diff!.unit).toBe('samples');
    expect(r.diff!.baseline.total).toBe(rawBusyCount(BASE));
  });
});
