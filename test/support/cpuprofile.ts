/** Test helpers for the V8 .cpuprofile tests: fixture paths, loading a profile and a summary of it. Node-only; used by tests alone. */
import { importProfile } from '../../shared/import/import-profile';
import type { Profile } from '../../shared/model/types';
import { fileSource, fixturePath } from './files';

export const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles', f);
export const zeroEx = (f: string) => fixturePath('corpus/0x', f);

/** A small readable picture of a profile. */
export function summary(p: Profile) {
  return {
    format: p.format,
    unit: p.unit,
    total: p.tree.total[0],
    samples: p.samples?.length,
    frames: p.frames.length,
    nodes: p.tree.length,
  };
}

export const load = (path: string, name?: string) => importProfile(fileSource(path, name));
