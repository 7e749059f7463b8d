/** Test helpers for the trace events tests: fixture paths, loading a trace and reading its call tree. Node-only; used by tests alone. */
import { expect } from 'vitest';
import { importProfile } from '../../shared/import/import-profile';
import { checkProfile } from '../../shared/model/integrity';
import type { Profile } from '../../shared/model/types';
import { fileSource, fixturePath, readText } from './files';

export const SPEEDSCOPE = fixturePath('corpus/speedscope/sample/profiles');

/** The fields of a trace event the tests read. */
export interface RawEvent {
  ph: string;
  cat?: string;
  name?: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { data?: { cpuProfile?: { samples?: number[] } } };
}

interface SpeedscopeProfile {
  name: string;
  total_weight: number;
  total_non_idle_weight: number;
}
export function speedscopeProfiles(path: string): SpeedscopeProfile[] {
  return JSON.parse(readText(`${path}.expected.json`)).speedscope_run.profiles;
}

export async function load(path: string, name: string, chunkSize?: number): Promise<Profile> {
  const p = await importProfile(fileSource(path, name, chunkSize));
  expect(checkProfile(p)).toEqual([]);
  expect(p.format).toBe('trace-events');
  return p;
}

export const frameName = (p: Profile, node: number) => (node === 0 ? '' : p.frames.name[p.tree.frame[node]!]!);
export function rootChildren(p: Profile): number[] {
  const out: number[] = [];
  for (let i = 1; i < p.tree.length; i++) if (p.tree.parent[i] === 0) out.push(i);
  return out;
}
/** Folded stacks under one root child, for small readable expectations. */
export function stacks(p: Profile, under = 0): string[] {
  const out: string[] = [];
  const t = p.tree;
  for (let i = under + 1; i < t.end[under]!; i++) {
    if (t.self[i] === 0) continue;
    const path: string[] = [];
    for (let n = i; n !== under; n = t.parent[n]!) path.unshift(frameName(p, n));
    out.push(`${path.join(';')} ${t.self[i]}`);
  }
  return out;
}
