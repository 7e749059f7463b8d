/**
 * Which of the files opened together are one run. 0x writes several files for one profile
 * (`flamegraph.html`, `isolate-*-v8.log`, `isolate-*-v8.log.json`, `meta.json`, `ticks.json`,
 * `stacks.<pid>.json`); picked or dropped together from one folder they are that folder, as if
 * the folder itself had been opened, not one run per file. `node --cpu-prof` writes one
 * `CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile` per thread of a process (a worker's time is
 * when it started): those of one process, from one folder, are one run with a thread per file.
 */
import { zeroExImporter } from '../import/formats/zeroex/zeroex';
import { type ThreadPart, mergeThreads } from '../model/threads';
import { timeReader } from '../model/sample-times';
import type { Profile } from '../model/types';
import { pathSegments } from './run-names';

/** How many runs a comparison holds at once. */
export const MAX_RUNS = 6;

export interface NamedItem {
  /** base name */
  name: string;
  /** the path as known: absolute, relative to a drop, or absent */
  path?: string;
}

export type SourceGroup<T extends NamedItem> =
  | { kind: 'single'; item: T }
  /** the files of one 0x output: `name` and `path` are those of the folder they are in */
  | { kind: 'folder'; name: string; path: string; items: T[] }
  /** the per-thread `.cpuprofile` files of one Node.js process, the main thread's first */
  | { kind: 'threads'; items: T[] };

/** Repeated runs of one variant: a folder's profiles of one kind, in name order; `name` and `path` are the folder's. */
export interface RepeatsGroup<T extends NamedItem> {
  kind: 'repeats';
  name: string;
  path: string;
  items: T[];
}

/** `CPU.20261125.121703.1215.1.002.cpuprofile`: date, time, pid, thread id, sequence number. */
const CPU_PROF = /^CPU\.(\d{8})\.\d{6}\.(\d+)\.(\d+)\.\d+\.cpuprofile(\.gz)?$/i;

/** The pid and thread id in a `node --cpu-prof` file name, or undefined when it is not one. */
export function cpuProfIds(name: string): { pid: string; tid: string } | undefined {
  const m = CPU_PROF.exec(name);
  return m ? { pid: m[2]!, tid: m[3]! } : undefined;
}

/**
 * One run of the profiles read from a process's per-thread files (a `threads` group, in its
 * order): each thread under a root frame named by its ids (`main 6494/0`, `worker 6494/1`), the
 * first file's thread shown first. Unweighed, as importers give them: weigh the run.
 */
export function threadFilesRun(name: string, files: readonly { name: string; profile: Profile }[]): Profile {
  const parts: ThreadPart[] = files.map(({ name: file, profile }, i) => {
    const ids = cpuProfIds(file) ?? { pid: '', tid: String(i) };
    const s = profile.samples;
    const time = s && timeReader(s);
    const seconds = s && s.length > 1 ? (time!(s.length - 1) - time!(0)) / 1e6 : 0;
    return { profile, info: { ...ids, name: ids.tid === '0' ? 'main' : 'worker', samples: s?.length ?? 0, seconds } };
  });
  return mergeThreads(name, parts);
}

const ZEROEX_MEMBER = /^(flamegraph\.html|meta\.json|ticks\.json|isolate-[\w-]+-v8(\.log)?(\.json)?|stacks\.\d+\.json)(\.gz)?$/i;

/** The folder an item is in (`''` for a bare name: files dropped together come from one folder). */
function folderOf(item: NamedItem): string[] {
  return pathSegments(item.path ?? item.name).slice(0, -1);
}

/** `<pid>.0x`, 0x's own name for the folder, from the pid in `isolate-0x…-<pid>-<tid>-v8.log` or `stacks.<pid>.json`. */
function zeroExFolderName(names: string[]): string {
  for (const n of names) {
    const m = /^isolate-0x[0-9a-f]+-(\d+)-/i.exec(n) ?? /^stacks\.(\d+)\.json/i.exec(n);
    if (m) return `${m[1]}.0x`;
  }
  return '0x';
}

/**
 * The items grouped into runs, in the order they came: each 0x output's files (two or more of
 * them, from one folder, that 0x's importer recognises as its folder) become one folder group
 * where the first of them was; every other item stays a run of its own.
 */
export function groupSources<T extends NamedItem>(items: readonly T[]): SourceGroup<T>[] {
  const byFolder = new Map<string, T[]>();
  for (const item of items) {
    if (!ZEROEX_MEMBER.test(item.name)) continue;
    const key = folderOf(item).join('/');
    byFolder.set(key, [...(byFolder.get(key) ?? []), item]);
  }
  const grouped = new Map<T, SourceGroup<T>>();
  groupThreads(items, grouped);
  for (const members of byFolder.values()) {
    const names = members.map((m) => m.name);
    if (members.length < 2 || new Set(names).size !== names.length || zeroExImporter.pickFromFolder?.(names) === undefined) continue;
    const dir = folderOf(members[0]!);
    const name = dir.length > 0 ? dir[dir.length - 1]! : zeroExFolderName(names);
    const full = members[0]!.path ?? members[0]!.name;
    const path = dir.length > 0 ? full.slice(0, full.lastIndexOf(members[0]!.name)).replace(/[\\/]+$/, '') : name;
    const group: SourceGroup<T> = { kind: 'folder', name, path, items: members };
    for (const m of members) grouped.set(m, group);
  }
  const out: SourceGroup<T>[] = [];
  const placed = new Set<SourceGroup<T>>();
  for (const item of items) {
    const g = grouped.get(item);
    if (!g) out.push({ kind: 'single', item });
    else if (!placed.has(g)) {
      placed.add(g);
      out.push(g);
    }
  }
  return out;
}

/** Groups the `.cpuprofile` files of one process (same folder, date and pid, distinct thread ids). */
function groupThreads<T extends NamedItem>(items: readonly T[], grouped: Map<T, SourceGroup<T>>): void {
  const byProcess = new Map<string, T[]>();
  for (const item of items) {
    const m = CPU_PROF.exec(item.name);
    if (!m) continue;
    const key = `${folderOf(item).join('/')}\u0000${m[1]}\u0000${m[2]}`;
    byProcess.set(key, [...(byProcess.get(key) ?? []), item]);
  }
  for (const members of byProcess.values()) {
    const tids = members.map((m) => Number(cpuProfIds(m.name)!.tid));
    if (members.length < 2 || new Set(tids).size !== tids.length) continue;
    const order = members.map((m, i) => ({ m, tid: tids[i]! })).sort((a, b) => a.tid - b.tid);
    const group: SourceGroup<T> = { kind: 'threads', items: order.map((x) => x.m) };
    for (const m of members) grouped.set(m, group);
  }
}

/** The kind of a profile file by its extension, a trailing `.gz` left out (`perf.F999.script.txt.gz`: `.txt`). */
function kindOf(name: string): string {
  const base = name.replace(/\.gz$/i, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/**
 * A folder's profile files as repeated runs of one variant: two or more files of one kind (a
 * `baseline/` folder of five `CPU.….cpuprofile` of five processes), none of them a thread of
 * another's process. Undefined for anything else (one file, files of several kinds, a process's
 * per-thread files): those open as they did, a run each. Only a folder makes repeats; files
 * picked one by one stay runs of their own.
 */
export function repeatsGroup<T extends NamedItem>(name: string, path: string, items: readonly T[]): RepeatsGroup<T> | undefined {
  if (items.length < 2 || new Set(items.map((i) => kindOf(i.name))).size !== 1) return undefined;
  if (groupSources(items).some((g) => g.kind !== 'single')) return undefined;
  const sorted = [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { kind: 'repeats', name, path, items: sorted };
}

// What a profile file is called (the importers' extensions, gzipped or not).
const PROFILE_FILE = /\.(cpuprofile|heapprofile|json|log|trace|txt|folded|collapsed|stacks|perf|script|pb|pprof|prof)(\.gz)?$/i;

/**
 * How a folder opened or dropped as a whole becomes runs: `'folder'` when it is one profile (a
 * `<pid>.0x` output), otherwise the names of the profile files in it, each a run of its own (a
 * `baseline/` folder holding `CPU….cpuprofile`), named by the folder. Empty when none look like
 * profiles: the folder then reports that it holds none.
 */
export function folderAsRuns(names: readonly string[]): 'folder' | string[] {
  if (zeroExImporter.pickFromFolder?.([...names]) !== undefined) return 'folder';
  return names.filter((n) => PROFILE_FILE.test(n));
}
