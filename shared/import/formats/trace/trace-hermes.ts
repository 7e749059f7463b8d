/**
 * Hermes (React Native) CPU samples in trace-event files: top-level `samples`
 * ([{"ts":"11552125241","tid":"7695","sf":1}]) and `stackFrames`
 * ({"1":{"name":"[root]","category":"root"},"2":{…,"parent":1}}), collected per thread while the
 * file streams by and turned into samples (weight 1, absolute timestamps) once a thread is chosen.
 */
import type { CallTreeBuilder, FrameTableBuilder } from '../../../model/builders';
import { GrowFloat64, GrowInt32 } from '../../../model/grow';
import { Tier, isTime } from '../../../model/types';
import type { SampledThread } from './trace-samples';
import { Interner } from './trace-spans';
import { type Obj, num, obj } from './trace-values';

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Hermes names a frame `function1(http://localhost:8081/index.bundle?platform=android…:1:1)`:
 * name, script, line and column. Split exactly as `/^(.*)\((.*):(\d+):(\d+)\)$/` would, but in
 * one pass: that expression backtracks cubically on a name full of `(` (40,000 of them took
 * 3.5 s). The line and column are the last two `:`-separated digit runs before the final `)`,
 * the script starts after the last `(` before them, and no part may hold a line break.
 */
export function splitHermesName(s: string): { name: string; file: string; line: number; column: number } | undefined {
  const end = s.length - 1;
  if (end < 0 || s.charCodeAt(end) !== 41 /* ) */) return undefined;
  let c = end;
  while (c > 0 && isDigit(s.charCodeAt(c - 1))) c--;
  if (c === end || s.charCodeAt(c - 1) !== 58 /* : */) return undefined;
  let l = c - 1;
  while (l > 0 && isDigit(s.charCodeAt(l - 1))) l--;
  if (l === c - 1 || l < 2 || s.charCodeAt(l - 1) !== 58) return undefined;
  const colon = l - 1;
  const paren = s.lastIndexOf('(', colon - 1);
  if (paren < 0) return undefined;
  for (let i = 0; i < colon; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 10 || ch === 13 || ch === 0x2028 || ch === 0x2029) return undefined;
  }
  return { name: s.slice(0, paren), file: s.slice(paren + 1, colon), line: Number(s.slice(l, c - 1)), column: Number(s.slice(c, end)) };
}

interface HermesThread {
  pid: string;
  tid: string;
  ts: GrowFloat64;
  sf: GrowInt32;
}

export class HermesSamples {
  private stackFrames: Obj | undefined;
  private readonly byThread = new Map<string, HermesThread>();
  private readonly sfIds = new Interner();
  skipped = 0;

  get seen(): boolean {
    return this.byThread.size > 0;
  }

  setStackFrames(v: unknown): void {
    this.stackFrames = obj(v);
  }

  sample(v: unknown): void {
    const s = obj(v);
    const ts = s ? num(s.ts) : NaN;
    if (!s || !isTime(ts) || s.sf === undefined) {
      this.skipped++;
      return;
    }
    const pid = String(s.pid ?? '');
    const tid = String(s.tid ?? '');
    const k = `${pid}:${tid}`;
    let t = this.byThread.get(k);
    if (!t) this.byThread.set(k, (t = { pid, tid, ts: new GrowFloat64(64), sf: new GrowInt32(64) }));
    t.ts.push(ts);
    t.sf.push(this.sfIds.id(String(s.sf)));
  }

  threads(): SampledThread[] {
    return [...this.byThread.values()].map((t) => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < t.ts.length; i++) {
        lo = Math.min(lo, t.ts.data[i]!);
        hi = Math.max(hi, t.ts.data[i]!);
      }
      return {
        pid: t.pid,
        tid: t.tid,
        samples: t.ts.length,
        busy: t.ts.length,
        span: hi > lo ? hi - lo : 0,
        build: (frames: FrameTableBuilder, tree: CallTreeBuilder, root?: number) => this.build(t, frames, tree, root ?? tree.root),
      };
    });
  }

  private build(t: HermesThread, frames: FrameTableBuilder, tree: CallTreeBuilder, root: number) {
    const table = this.stackFrames ?? {};
    const memo = new Map<string, number>();
    let missing = 0;
    let cycles = 0;
    const onChain = new Set<string>();
    const frameOfEntry = (f: Obj): number => {
      const raw = typeof f.name === 'string' ? f.name : '';
      // "function1(http://localhost:8081/index.bundle?platform=android…:1:1)"
      const m = splitHermesName(raw);
      if (m) return frames.intern({ ...m, tier: Tier.Unknown });
      return frames.intern({ name: raw, line: num(f.line) || 0, column: num(f.column) || 0, tier: Tier.Unknown });
    };
    const resolve = (sf: string): number => {
      const known = memo.get(sf);
      if (known !== undefined) return known;
      const chain: string[] = [];
      onChain.clear();
      let base = root;
      for (let cur: string | undefined = sf; cur !== undefined;) {
        const m = memo.get(cur);
        if (m !== undefined) {
          base = m;
          break;
        }
        // (own keys only: a frame id "__proto__" must not find Object.prototype)
        const f: Obj | undefined = Object.hasOwn(table, cur) ? obj(table[cur]) : undefined;
        if (!f) {
          missing++;
          if (chain.length === 0) return tree.child(root, frames.intern({ name: '(unknown)', tier: Tier.Unknown }));
          break;
        }
        if (onChain.has(cur)) {
          // {"1":{"name":"a","parent":1}}: a parent cycle, cut where it closes
          cycles++;
          break;
        }
        chain.push(cur);
        onChain.add(cur);
        if (chain.length > 100_000) break;
        // speedscope stops at a parent of 0 or none
        cur = f.parent === undefined || f.parent === null || f.parent === 0 || f.parent === '0' ? undefined : String(f.parent);
      }
      for (let i = chain.length - 1; i >= 0; i--) {
        base = tree.child(base, frameOfEntry(obj(table[chain[i]!])!));
        memo.set(chain[i]!, base);
      }
      return base;
    };
    const ts = t.ts.data;
    const sf = t.sf.data;
    let start = Infinity;
    let end = -Infinity;
    for (let i = 0; i < t.ts.length; i++) {
      tree.addSample(resolve(this.sfIds.values[sf[i]!]!), 1, ts[i]!);
      start = Math.min(start, ts[i]!);
      end = Math.max(end, ts[i]!);
    }
    const warnings = missing > 0 ? [`${missing} sample stack frame(s) missing from stackFrames`] : [];
    if (cycles > 0) warnings.push(`${cycles} cycle(s) in the parent links of stackFrames; each was cut and put under the root`);
    return { start, end, recordedEnd: -Infinity, warnings };
  }
}
