/**
 * The single merged diff flamegraph: the union of the baseline's and the run's call trees as a
 * Profile of its own, each box as wide as the wider side (baseline weights on the run's scale in
 * relative mode), so that both new and vanished paths can be seen in one picture.
 */
import type { FrameTable, Profile } from '../model/types';
import type { ProfileDiff } from './diff';

function frameOfKey(p: Profile): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < p.frames.length; i++) if (!m.has(p.frames.key[i]!)) m.set(p.frames.key[i]!, i);
  return m;
}

export function mergedProfile(d: ProfileDiff, baseline: Profile, run: Profile): Profile {
  const inRun = frameOfKey(run);
  const inBase = frameOfKey(baseline);
  const n = d.keys.length;
  const frames: FrameTable = {
    length: n,
    name: new Array<string>(n),
    file: new Array<string>(n),
    line: new Int32Array(n),
    column: new Int32Array(n),
    category: new Uint8Array(n),
    tier: new Uint8Array(n),
    pkg: new Array<string>(n),
    key: d.keys.slice(),
    label: new Array<string>(n).fill(''),
  };
  d.keys.forEach((k, i) => {
    const r = inRun.get(k);
    const src = r !== undefined ? run.frames : baseline.frames;
    const j = r ?? inBase.get(k) ?? -1;
    frames.name[i] = j >= 0 ? src.name[j]! : k.split('\t')[0]!;
    frames.file[i] = j >= 0 ? src.file[j]! : '';
    frames.pkg[i] = j >= 0 ? src.pkg[j]! : '';
    if (j >= 0) {
      frames.line[i] = src.line[j]!;
      frames.column[i] = src.column[j]!;
      frames.category[i] = src.category[j]!;
      frames.tier[i] = src.tier[j]!;
    } else frames.category[i] = 10;
  });
  const t = d.tree;
  const self = new Float64Array(t.length);
  for (let i = 0; i < t.length; i++) self[i] = Math.max(t.baseSelf[i]! * d.baselineScale, t.runSelf[i]!);
  const total = self.slice();
  for (let i = t.length - 1; i > 0; i--) total[t.parent[i]!]! += total[i]!;
  return {
    version: 1,
    name: `${run.name} vs ${baseline.name}`,
    format: run.format,
    kind: run.kind,
    unit: d.unit,
    frames,
    tree: { length: t.length, parent: t.parent, frame: t.key, depth: t.depth, end: t.end, self, total },
    meta: { producer: 'Flamelens merged diff', warnings: [] },
  };
}
