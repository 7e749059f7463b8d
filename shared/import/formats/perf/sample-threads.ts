/**
 * Threads of a sampled profile whose samples say which thread took them (`SampleTable.thread`:
 * perf script interleaves every thread of the process): every thread with samples listed in
 * `meta.threads`, and, when one is asked for, only its samples kept.
 */
import { THREADS_TOGETHER } from '../../../model/threads';
import { addSampleWeights, samplesAt } from '../../../model/sample-weights';
import { timeReader } from '../../../model/sample-times';
import type { Profile, ThreadInfo } from '../../../model/types';
import { ImportError } from '../../errors';

/**
 * `p` with its threads listed (by sample count, most first), the sample column renumbered to
 * that list; `choice` (`PID:TID`, a TID, a thread name — the busiest of that name — or `all`)
 * keeps one thread's samples only. `keys` are the threads' `pid:tid` ('' pid when the file gives
 * none) and `names` their names, by the index the samples carry.
 */
export function withThreads(file: string, p: Profile, keys: string[], names: string[], choice?: string): Profile {
  const s = p.samples;
  if (!s || !s.thread || keys.length < 2) return p;
  const count = new Array<number>(keys.length).fill(0);
  const lo = new Array<number>(keys.length).fill(Infinity);
  const hi = new Array<number>(keys.length).fill(-Infinity);
  const time = timeReader(s);
  for (let i = 0; i < s.length; i++) {
    const k = s.thread[i]!;
    count[k]!++;
    const t = time(i);
    if (t < lo[k]!) lo[k] = t;
    if (t > hi[k]!) hi[k] = t;
  }
  const order = keys.map((_, k) => k).filter((k) => count[k]! > 0);
  order.sort((a, b) => count[b]! - count[a]! || a - b);
  const info = (k: number): ThreadInfo => {
    const [pid, tid] = [keys[k]!.slice(0, keys[k]!.indexOf(':')), keys[k]!.slice(keys[k]!.indexOf(':') + 1)];
    return { pid, tid, name: names[k]!, samples: count[k]!, seconds: hi[k]! > lo[k]! ? (hi[k]! - lo[k]!) / 1e6 : 0 };
  };
  const label = (k: number) => {
    const t = info(k);
    return `${t.name} (${t.pid === '' ? t.tid : `${t.pid}/${t.tid}`})`;
  };

  let chosen: number | undefined;
  if (choice !== undefined && choice !== 'all') {
    chosen = order.find((k) => keys[k] === choice || keys[k] === `:${choice}`);
    if (chosen === undefined) chosen = order.find((k) => names[k] === choice); // the busiest of that name
    if (chosen === undefined)
      throw new ImportError({
        file,
        message: `no thread "${choice}" has samples in this file; its threads: ${order
          .map((k) => `${names[k]} ${keys[k]!.startsWith(':') ? keys[k]!.slice(1) : keys[k]} (${count[k]} samples)`)
          .join(', ')}, or all`,
      });
  }
  if (order.length < 2) return dropThreadColumn(p);
  if (chosen === undefined) {
    // every thread, the column renumbered to the list
    const renumber = new Int32Array(keys.length);
    order.forEach((k, i) => (renumber[k] = i));
    const thread = s.thread.map((k) => renumber[k]!);
    const meta = { ...p.meta, thread: `all ${order.length} threads`, threads: order.map(info) };
    // read as perf script is by default, each stack under its comm: the view of every thread together
    if (choice === undefined) meta.defaultThread = THREADS_TOGETHER;
    return { ...p, samples: { ...s, thread }, meta };
  }
  const listed = [chosen, ...order.filter((k) => k !== chosen)];
  const keep: number[] = [];
  for (let i = 0; i < s.length; i++) if (s.thread[i] === chosen) keep.push(i);
  const samples = samplesAt(s, keep);
  const self = new Float64Array(p.tree.length);
  addSampleWeights(samples, p.unit, self);
  const total = self.slice();
  for (let i = p.tree.length - 1; i > 0; i--) total[p.tree.parent[i]!]! += total[i]!;
  const others = listed.slice(1);
  const warnings = [
    ...p.meta.warnings,
    `samples of ${others.length} other thread(s) are not shown: ${others.map((k) => `${label(k)} (${count[k]} samples)`).join(', ')}`,
  ];
  const meta = { ...p.meta, thread: label(chosen), threads: listed.map(info), warnings };
  if (hi[chosen]! >= lo[chosen]!) Object.assign(meta, { startTime: lo[chosen], endTime: hi[chosen] });
  return { ...p, tree: { ...p.tree, self, total }, samples, meta };
}

function dropThreadColumn(p: Profile): Profile {
  const { thread: _, ...samples } = p.samples!;
  return { ...p, samples };
}
