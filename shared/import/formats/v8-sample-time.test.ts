/**
 * Time weights of V8 samples on real recordings by the Chrome DevTools team
 * (fixtures/corpus/devtools-frontend, see its PROVENANCE.md): the importers keep samples in time
 * order and the model weighs each until the next, the last one the mean interval, as DevTools'
 * `CPUProfileDataModel` does. Every figure is checked against a computation from the raw JSON
 * made here, with none of the importers' code.
 */
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import-profile';
import { checkProfile } from '../../model/integrity';
import type { Profile } from '../../model/types';
import { weighProfile } from '../../model/weigh';
import { fileSource, fixturePath, readText } from '../../test/files';
import { type RawProfile, rawFunctionKey, readV8Profiles } from '../../test/v8-raw';

const dir = (f: string) => fixturePath('corpus/devtools-frontend', f);

const FILES = [
  'mainWasm_profile.json.gz',
  'recursive-counting-js.json.gz',
  'two-workers.json.gz',
  'load-simple.json.gz',
  'node-fibonacci-website.cpuprofile.gz',
];

/** DevTools' rule, from the raw samples: sorted by time (stably), each lasts until the next, the last the mean interval. */
function devtoolsSelf(raw: RawProfile[]): { total: number; span: number; mean: number; self: Map<string, number> } {
  const ids = raw.flatMap((p) => p.ids);
  const times = raw.flatMap((p) => p.times);
  const leaf = raw.flatMap((p) => p.ids.map((id) => rawFunctionKey(p.nodes.get(id)!)));
  const order = ids.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const n = order.length;
  const span = times[order[n - 1]!]! - times[order[0]!]!;
  const mean = span / (n - 1);
  const self = new Map<string, number>();
  let total = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const w = k + 1 < n ? times[order[k + 1]!]! - times[i]! : mean;
    self.set(leaf[i]!, (self.get(leaf[i]!) ?? 0) + w);
    total += w;
  }
  return { total, span, mean, self };
}

/**
 * speedscope's rule (PROVENANCE.md, "What a test author must know"), from the raw samples in file
 * order: a run of equal consecutive samples counts once, at its first time; a time earlier than
 * the one before is raised to it; each run lasts until the next; the last weighs 0. Its
 * `attributedWeight` leaves out `(idle)` and `(root)`.
 */
function speedscopeAttributed(raw: RawProfile[]): number {
  let sum = 0;
  for (const p of raw) {
    const runs: { id: number; t: number }[] = [];
    let latest = -Infinity;
    p.ids.forEach((id, i) => {
      if (runs.length > 0 && runs[runs.length - 1]!.id === id) return;
      latest = Math.max(latest, p.times[i]!);
      runs.push({ id, t: latest });
    });
    // It closes with the stack of the sample before the last, at the last time.
    if (p.ids.length > 1) runs.push({ id: p.ids[p.ids.length - 2]!, t: Math.max(latest, p.times[p.times.length - 1]!) });
    for (let k = 0; k + 1 < runs.length; k++) {
      const n = p.nodes.get(runs[k]!.id)!;
      if (n.functionName !== '(idle)' && n.functionName !== '(root)' && n.url !== 'native dummy.js') sum += runs[k + 1]!.t - runs[k]!.t;
    }
  }
  return sum;
}

/** Self weight per function of a profile, keyed as `rawFunctionKey` keys the raw samples. */
function ourSelf(p: Profile): Map<string, number> {
  const out = new Map<string, number>();
  const f = p.frames;
  for (let i = 1; i < p.tree.length; i++) {
    const fr = p.tree.frame[i]!;
    const key = `${f.name[fr]} ${f.file[fr]}:${f.line[fr]}:${f.column[fr]}`;
    out.set(key, (out.get(key) ?? 0) + p.tree.self[i]!);
  }
  return out;
}

/** The raw profiles grouped by thread (`pid:tid`; '' for a .cpuprofile), in file order. */
function byThread(all: RawProfile[]): Map<string, RawProfile[]> {
  const out = new Map<string, RawProfile[]>();
  for (const r of all) {
    const k = r.pid === '' ? '' : `${r.pid}:${r.tid}`;
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

describe('V8 samples weighed by time, on DevTools recordings', () => {
  for (const file of FILES) {
    it(`${file}: every thread's samples in time order, total = sampled span + mean interval, self per function as DevTools weighs`, async () => {
      const threads = byThread(readV8Profiles(dir(file)));
      expect(threads.size).toBeGreaterThan(0);
      for (const [key, raw] of threads) {
        const imported = await importProfile(fileSource(dir(file)), key === '' ? {} : { options: { thread: key } });
        expect(checkProfile(imported)).toEqual([]);
        if (key !== '') expect(imported.meta.thread).toMatch(new RegExp(`\\(${raw[0]!.pid}/${raw[0]!.tid}\\)$`));
        const s = imported.samples!;
        expect(s.length).toBe(raw.reduce((n, r) => n + r.ids.length, 0));
        for (let i = 1; i < s.length; i++) expect(s.time[i]! >= s.time[i - 1]!).toBe(true);

        const p = weighProfile(imported, 'time');
        expect(p.unit).toBe('microseconds');
        const want = devtoolsSelf(raw);
        const total = p.tree.total[0]!;
        expect(Math.abs(total - (want.span + want.mean)), key).toBeLessThanOrEqual(0.001 * want.total);
        const got = ourSelf(p);
        for (const [fn, w] of want.self) {
          const g = got.get(fn) ?? 0;
          expect(Math.abs(g - w), `${key} ${fn}: ${g} µs, DevTools' rule ${w} µs`).toBeLessThanOrEqual(0.01 * w + 1e-9 * total);
        }

        // speedscope's expected file is made by its own rule (see speedscopeAttributed): the same
        // rule run here on the raw samples gives its attributedWeight, so what sets the two tools
        // apart is the rule alone — the mean interval of the last sample, runs of equal samples
        // and clamped times against sorted ones — and not what either reads from the file.
        const expected = JSON.parse(readText(dir(file.replace(/\.gz$/, '.expected.speedscope.json'))));
        const ref = expected.profiles.find(
          (x: { thread: { pid: number; tid: number } | null }) =>
            x.thread === null || (String(x.thread.pid) === raw[0]!.pid && String(x.thread.tid) === raw[0]!.tid),
        );
        expect(speedscopeAttributed(raw)).toBeCloseTo(ref.attributedWeight, 0);
      }
    });
  }
});
