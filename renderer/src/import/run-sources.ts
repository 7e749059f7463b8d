/** Which runs the opened files and folders make: one pane and one worker each. */
import { folderAsRuns, groupSources } from '../../../shared/runs/group-sources';
import type { WorkerFile, WorkerSource } from './protocol';

/**
 * The sources as runs: a folder that is not one profile (a `baseline/` folder rather than a 0x
 * output) opens its profile files, each named by its path in the folder; the files of one 0x
 * output, opened or dropped together, are the folder they came from: one run.
 */
export function runSources(all: WorkerSource[]): WorkerSource[] {
  const flat = all.flatMap((src): WorkerSource[] => {
    if (src.kind !== 'folder') return [src];
    const runs = folderAsRuns(src.files.map((f) => f.name));
    if (runs === 'folder' || runs.length === 0) return [src];
    return src.files.filter((f) => runs.includes(f.name)).map((f) => ({ ...f, path: f.path ?? `${src.path ?? src.name}/${f.name}` }));
  });
  return groupSources(flat).map((g): WorkerSource => {
    if (g.kind === 'single') return g.item;
    if (g.kind === 'folder') return { kind: 'folder', name: g.name, path: g.path, files: g.items as WorkerFile[] };
    const main = g.items[0] as WorkerFile;
    return { kind: 'threads', name: main.name, ...(main.path !== undefined ? { path: main.path } : {}), files: g.items as WorkerFile[] };
  });
}
