/**
 * Time weights of V8 samples on real recordings by the Chrome DevTools team
 * (fixtures/corpus/devtools-frontend, see its PROVENANCE.md): the importers keep samples in time
 * order and the model weighs each until the next, the last one the mean interval, as DevTools'
 * `CPUProfileDataModel` does. Every figure is checked against a computation from the raw JSON
 * made here, with none of the importers' code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../../import-profile';
import { checkProfile } from '../../../model/integrity';
import { ALL_THREADS, threadKey, threadView } from '../../../model/threads';
import type { Profile } from '../../../model/types';
import { weighProfile } from '../../../model/weigh';
import { fileSource, fixturePath, readText } from '../../../../test/support/files';
import { type RawProfile, rawFunctionKey, readV8Profiles } from '../../../../test/support/v8-raw';
import { timeColumn } from '../../../model/sample-times';

const dir = (f: string) => fixturePath('corpus/devtools-frontend', f);

const FILES = [
  'mainWasm_profile.json.gz',
  'recursive-counting-js.json.gz',
  'two-workers.json.gz',
  'load-simple.json.gz',
  'node-fibonacci-website.cpuprofile.gz',
  'wrong-main-frame-bug.json.gz',
  'web-dev-initial-url.json.gz',
  'extension-tracks-and-marks.json.gz',
  'fenced-frame-fledge.json.gz',
  'multiple-top-level-renderers.json.gz',
];

/** speedscope's results for `file` (the large ones are stored gzipped). */
function expectedFor(file: string): Expected {
  const path = dir(file.replace(/\.gz$/, '.expected.speedscope.json'));
  return JSON.parse(existsSync(path) ? readText(path) : gunzipSync(readFileSync(`${path}.gz`)).toString('utf8'));
}

interface Expected {
  profiles: {
    thread: { pid: number; tid: number } | null;
    attributedWeight: number;
    frames: { name: string; file: string; line: number | null; col: number | null; self: number }[];
    stacks: [number[], number][];
  }[];
}

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
 * the one before is raised to it; each run lasts until the next; the last weighs 0; `(idle)` and
 * `(root)` are left out. Self time per function, keyed as `rawFunctionKey` keys them.
 */
function speedscopeSelf(raw: RawProfile[]): Map<string, number> {
  const self = new Map<string, number>();
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
      if (n.functionName === '(idle)' || n.functionName === '(root)' || n.url === 'native dummy.js') continue;
      const key = rawFunctionKey(n);
      self.set(key, (self.get(key) ?? 0) + runs[k + 1]!.t - runs[k]!.t);
    }
  }
  return self;
}

/** A speedscope frame keyed as `rawFunctionKey` keys V8's (speedscope names an unnamed function `(anonymous file:line)`). */
function speedscopeKey(f: Expected['profiles'][number]['frames'][number]): string {
  const name = f.name.startsWith('(anonymous') && f.file !== '' ? '(anonymous)' : f.name;
  return `${name} ${f.file}:${f.line ?? 0}:${f.col ?? 0}`;
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

/**
 * A profile's call paths, each frame keyed as `ourSelf` keys it: `has(keys)` says whether the
 * path of frames `keys` (root first) leads from the root to a node. (Paths are held as a
 * parent's path number and a frame's, not as text: some stacks are 98 frames deep.)
 */
function ourPaths(p: Profile): { has(keys: string[]): boolean } {
  const f = p.frames;
  const frameIds = new Map<string, number>();
  const frameId = (k: string) => frameIds.get(k) ?? (frameIds.set(k, frameIds.size), frameIds.size - 1);
  const paths = new Map<string, number>();
  const pathOf = new Int32Array(p.tree.length);
  for (let i = 1; i < p.tree.length; i++) {
    const fr = p.tree.frame[i]!;
    const step = `${pathOf[p.tree.parent[i]!]}:${frameId(`${f.name[fr]} ${f.file[fr]}:${f.line[fr]}:${f.column[fr]}`)}`;
    pathOf[i] = paths.get(step) ?? (paths.set(step, paths.size + 1), paths.size);
  }
  return {
    has(keys) {
      let at: number | undefined = 0;
      for (const k of keys) {
        const id = frameIds.get(k);
        at = id === undefined ? undefined : paths.get(`${at}:${id}`);
        if (at === undefined) return false;
      }
      return true;
    },
  };
}

/**
 * speedscope's stacks with weight, keyed as `ourSelf` keys frames, root first, with its
 * structure undone (PROVENANCE.md): `(program)` and `(garbage collector)`, which it draws on the
 * previous sample's stack, back at the root where V8 records them.
 */
function speedscopePaths(ref: Expected['profiles'][number]): string[][] {
  return ref.stacks
    .filter(([, w]) => w > 0)
    .map(([ids]) => {
      const keys = ids.map((i) => speedscopeKey(ref.frames[i]!));
      const leaf = ref.frames[ids[ids.length - 1]!]!.name;
      return leaf === '(program)' || leaf === '(garbage collector)' ? keys.slice(-1) : keys;
    });
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

/**
 * Each thread of `file` as the app shows it, weighed by time: the file read once with every
 * thread (each under a root frame) and the thread cut out (`threadView`), as a pane shows it
 * after a choice; a file of one thread read as it is. Checks that every thread with samples is
 * listed, with its raw sample count.
 */
async function importedThreads(file: string, threads: Map<string, RawProfile[]>): Promise<Map<string, Profile>> {
  const out = new Map<string, Profile>();
  if (threads.size === 1) {
    const [key] = threads.keys();
    out.set(key!, await importProfile(fileSource(dir(file)), key === '' ? {} : { options: { thread: key } }));
    return out;
  }
  const all = await importProfile(fileSource(dir(file)), { options: { thread: ALL_THREADS } });
  expect(checkProfile(all)).toEqual([]);
  const listed = all.meta.threads!.map((t) => [threadKey(t), t.samples]);
  const raw = [...threads].map(([k, r]) => [k, r.reduce((n, x) => n + x.ids.length, 0)]);
  expect(listed.sort()).toEqual(raw.sort());
  for (const t of all.meta.threads!) expect(t.name).toBe(threads.get(threadKey(t))![0]!.threadName);
  for (const key of threads.keys()) out.set(key, threadView(all, key)!);
  return out;
}

describe('V8 samples weighed by time, on DevTools recordings', () => {
  for (const file of FILES) {
    it(`${file}: every thread listed with its raw sample count, samples in time order, total = sampled span + mean interval, self per function as DevTools weighs`, async () => {
      const threads = byThread(readV8Profiles(dir(file)));
      expect(threads.size).toBeGreaterThan(0);
      const imported = await importedThreads(file, threads);
      const expected = expectedFor(file);
      for (const [key, raw] of threads) {
        const one = imported.get(key)!;
        expect(checkProfile(one)).toEqual([]);
        if (key !== '') expect(one.meta.thread).toMatch(new RegExp(`\\(${raw[0]!.pid}/${raw[0]!.tid}\\)$`));
        const s = one.samples!;
        expect(s.length).toBe(raw.reduce((n, r) => n + r.ids.length, 0));
        for (let i = 1, time = timeColumn(s); i < s.length; i++)
          if (time[i]! < time[i - 1]!) expect.fail(`${key}: sample ${i} before the one ahead of it`);

        const p = weighProfile(one, 'time');
        expect(p.unit).toBe('microseconds');
        const want = devtoolsSelf(raw);
        const total = p.tree.total[0]!;
        expect(Math.abs(total - (want.span + want.mean)), key).toBeLessThanOrEqual(0.001 * want.total);
        const got = ourSelf(p);
        for (const [fn, w] of want.self) {
          const g = got.get(fn) ?? 0;
          if (Math.abs(g - w) > 0.01 * w + 1e-9 * total) expect.fail(`${key} ${fn}: ${g} µs, DevTools' rule ${w} µs`);
        }

        // speedscope's expected file is made by its own rule (see speedscopeSelf): the same rule
        // run here on the raw samples gives its attributedWeight and every frame's self weight,
        // so what sets the two tools apart is the rule alone — the mean interval of the last
        // sample, runs of equal samples at their first time and clamped times against sorted
        // ones — and not what either reads from the file. (speedscope draws `(program)` on the
        // previous sample's stack: that moves no self weight between functions, and is undone below.)
        const ref = expected.profiles.find(
          (x) => x.thread === null || (String(x.thread.pid) === raw[0]!.pid && String(x.thread.tid) === raw[0]!.tid),
        )!;
        const theirs = speedscopeSelf(raw);
        const sum = [...theirs.values()].reduce((a, b) => a + b, 0);
        expect(sum, key).toBeCloseTo(ref.attributedWeight, 0);
        const frames = new Map<string, number>();
        for (const f of ref.frames) frames.set(speedscopeKey(f), (frames.get(speedscopeKey(f)) ?? 0) + f.self);
        for (const [fn, w] of frames) {
          const mine = theirs.get(fn) ?? 0;
          if (Math.abs(mine - w) > 0.5) expect.fail(`${key} ${fn}: speedscope ${w} µs, its rule here ${mine} µs`);
        }
        // Its stacks are ours once its structure is undone: every stack it weighs is a call path here.
        const ours = ourPaths(p);
        const theirPaths = speedscopePaths(ref);
        expect(theirPaths.length, key).toBeGreaterThan(0);
        expect(
          theirPaths.filter((x) => !ours.has(x)).map((x) => x.join(';')),
          key,
        ).toEqual([]);
      }
    });
  }
});
