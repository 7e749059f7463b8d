import type { Profile } from './types';
import { CATEGORY_COUNT } from './types';
import { derivableWeights } from './sample-weights';
import { timeColumnsProblem, timeReader } from './sample-times';
import { visibleText } from './visible-text';
import { checkHeapGraph } from '../heap/check';

/**
 * Checks every invariant `types.ts` promises. Returns the problems found (empty when sound);
 * importer tests and the fuzz suite run it on every model they build.
 */
export function checkProfile(p: Profile): string[] {
  const problems: string[] = [];
  const say = (m: string) => {
    if (problems.length < 20) problems.push(m);
  };
  const f = p.frames;
  for (const col of ['name', 'file', 'line', 'column', 'category', 'tier', 'pkg', 'key', 'label'] as const) {
    if (f[col].length !== f.length) say(`frames.${col} has ${f[col].length} entries, expected ${f.length}`);
  }
  for (let i = 0; i < f.length; i++) {
    if (f.category[i]! >= CATEGORY_COUNT) say(`frame ${i} has category ${f.category[i]}`);
    if (f.line[i]! < 0 || f.column[i]! < 0) say(`frame ${i} has a negative line or column`);
    if (typeof f.name[i] !== 'string' || f.name[i] === '') say(`frame ${i} has no name`);
    // names, files and labels are shown as they are: control and bidi characters as escapes
    for (const text of [f.name[i], f.file[i], f.label[i]])
      if (typeof text === 'string' && visibleText(text) !== text)
        say(`frame ${i} holds a control or bidi character: ${JSON.stringify(text.slice(0, 80))}`);
  }
  for (const st of p.traceStats ?? [])
    for (const text of [st.category, st.name, st.phase])
      if (visibleText(text) !== text) say(`a trace statistics row holds a control or bidi character: ${JSON.stringify(text.slice(0, 80))}`);
  const t = p.tree;
  for (const col of ['parent', 'frame', 'depth', 'end', 'self', 'total'] as const) {
    if (t[col].length !== t.length) say(`tree.${col} has ${t[col].length} entries, expected ${t.length}`);
  }
  if (t.length < 1) say('tree has no root');
  else if (t.parent[0] !== -1 || t.frame[0] !== -1 || t.depth[0] !== 0) say('node 0 is not the root');
  const childSum = new Float64Array(t.length);
  for (let i = 1; i < t.length; i++) {
    const par = t.parent[i]!;
    if (par < 0 || par >= i) {
      say(`node ${i} has parent ${par}, not an earlier node`);
      continue;
    }
    if (t.depth[i] !== t.depth[par]! + 1) say(`node ${i} has depth ${t.depth[i]}, parent depth ${t.depth[par]}`);
    if (i >= t.end[par]!) say(`node ${i} lies outside its parent's subtree`);
    if (t.frame[i]! < 0 || t.frame[i]! >= f.length) say(`node ${i} points at frame ${t.frame[i]}`);
    childSum[par]! += t.total[i]!;
  }
  for (let i = 0; i < t.length; i++) {
    const s = t.self[i]!;
    if (!Number.isFinite(s) || s < 0) say(`node ${i} has self weight ${s}`);
    const expect = s + childSum[i]!;
    // Written so that NaN and Infinity fail too (Infinity - Infinity is NaN, and NaN > x is false).
    if (!Number.isFinite(t.total[i]!)) say(`node ${i} has total weight ${t.total[i]}`);
    else if (!(Math.abs(t.total[i]! - expect) <= 1e-6 * Math.max(1, Math.abs(expect)))) say(`node ${i} total ${t.total[i]} != ${expect}`);
    if (t.end[i]! <= i || t.end[i]! > t.length) say(`node ${i} has subtree end ${t.end[i]}`);
  }
  const s = p.samples;
  if (s) {
    if (s.node.length !== s.length || (s.weight && s.weight.length !== s.length)) say('sample columns differ in length');
    const times = timeColumnsProblem(s);
    if (times) say(times);
    const time = times ? () => NaN : timeReader(s);
    if (!s.weight && !derivableWeights(p.unit)) say(`samples in ${p.unit} without their weights`);
    if (s.thread && s.thread.length !== s.length) say('sample columns differ in length');
    if (s.thread)
      for (let i = 0; i < s.length; i++)
        if (s.thread[i]! < 0 || s.thread[i]! >= (p.meta.threads?.length ?? 0)) say(`sample ${i} has thread ${s.thread[i]}`);
    for (let i = 0; i < s.length; i++) {
      if (s.node[i]! < 0 || s.node[i]! >= t.length) say(`sample ${i} points at node ${s.node[i]}`);
      if (s.weight && (!Number.isFinite(s.weight[i]!) || s.weight[i]! < 0)) say(`sample ${i} has weight ${s.weight[i]}`);
      // a time is known (finite) or unknown (NaN), never infinite
      const at = time(i);
      if (at === Infinity || at === -Infinity) say(`sample ${i} has time ${at}`);
    }
  }
  for (const k of ['startTime', 'endTime', 'sampleInterval'] as const) {
    const v = p.meta[k];
    if (v !== undefined && !Number.isFinite(v)) say(`meta.${k} is ${v}`);
  }
  if (p.heap) checkHeapGraph(p.heap, say);
  else if (p.kind === 'heap') say('a heap profile without its heap graph');
  return problems;
}
