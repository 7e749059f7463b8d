/**
 * The mean of several profiles of one variant (repeated runs of the same load): one call tree
 * holding every stack any of them has, each node's self weight the mean over the profiles (a
 * stack a run lacks counts 0 there). Frames are matched by their full identity, so the mean is
 * drawn and compared as any profile is. Samples are not kept: the mean has weights only.
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from './builders';
import { reinterned } from './threads';
import type { Profile } from './types';

export function meanProfile(name: string, profiles: readonly Profile[]): Profile {
  const first = profiles[0]!;
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  const k = profiles.length;
  for (const p of profiles) {
    const frameOf = reinterned(p.frames, frames);
    const nodeMap = new Int32Array(p.tree.length);
    nodeMap[0] = tree.root;
    for (let j = 1; j < p.tree.length; j++) {
      nodeMap[j] = tree.child(nodeMap[p.tree.parent[j]!]!, frameOf(p.tree.frame[j]!));
      if (p.tree.self[j]! > 0) tree.addSelf(nodeMap[j]!, p.tree.self[j]! / k);
    }
    if (p.tree.self[0]! > 0) tree.addSelf(tree.root, p.tree.self[0]! / k);
  }
  const meta = { ...first.meta, producer: `${first.meta.producer ?? first.format}, mean of ${k} runs`, warnings: [...first.meta.warnings] };
  delete meta.threads;
  // How long the mean run lasted: the mean of the runs' durations (not the first run's), from its start.
  const durations = profiles.flatMap((p) =>
    p.meta.startTime !== undefined && p.meta.endTime !== undefined ? [p.meta.endTime - p.meta.startTime] : [],
  );
  if (meta.startTime !== undefined && durations.length === k) meta.endTime = meta.startTime + durations.reduce((a, b) => a + b, 0) / k;
  else delete meta.endTime;
  return finishProfile({ name, format: first.format, kind: first.kind, unit: first.unit, frames, tree, meta });
}
