/** Which runs the opened files and folders make: one pane and one worker each. */
import { fitRuns } from '../../../shared/runs/fit-runs';
import { folderAsRuns, groupSources, repeatsGroup } from '../../../shared/runs/group-sources';
import type { WorkerFile, WorkerSource } from './protocol';

/**
 * A folder that is not one profile: its profile files, each named by its path in the folder, or
 * when they are repeats of one variant (several profiles of one kind), one `repeats` source.
 */
function folderSources(src: Extract<WorkerSource, { kind: 'folder' }>): WorkerSource[] {
  const runs = folderAsRuns(src.files.map((f) => f.name));
  if (runs === 'folder' || runs.length === 0) return [src];
  const path = src.path ?? src.name;
  const files = src.files.filter((f) => runs.includes(f.name)).map((f) => ({ ...f, path: f.path ?? `${path}/${f.name}` }));
  const repeats = repeatsGroup(src.name, path, files);
  if (!repeats) return files;
  return [{ kind: 'repeats', name: repeats.name, path: repeats.path, files: repeats.items }];
}

/**
 * The sources as runs: a folder that is not one profile (a `baseline/` folder rather than a 0x
 * output) opens its profile files, each named by its path in the folder, or as one run of
 * several repeats when they are profiles of one kind; the files of one 0x output, opened or
 * dropped together, are the folder they came from: one run.
 */
export function runSources(all: WorkerSource[]): WorkerSource[] {
  const out: WorkerSource[] = [];
  let loose: WorkerSource[] = [];
  const flush = () => {
    out.push(...groupLoose(loose));
    loose = [];
  };
  for (const src of all) {
    const parts = src.kind === 'folder' ? folderSources(src) : [src];
    for (const p of parts) {
      if (p.kind === 'repeats') {
        flush();
        out.push(p);
      } else loose.push(p);
    }
  }
  flush();
  return out;
}

function groupLoose(flat: WorkerSource[]): WorkerSource[] {
  return groupSources(flat).map((g): WorkerSource => {
    if (g.kind === 'single') return g.item;
    if (g.kind === 'folder') return { kind: 'folder', name: g.name, path: g.path, files: g.items as WorkerFile[] };
    const main = g.items[0] as WorkerFile;
    return { kind: 'threads', name: main.name, ...(main.path !== undefined ? { path: main.path } : {}), files: g.items as WorkerFile[] };
  });
}

/** The runs that fit in `room` panes: the same captures from each folder where several were opened (shared/runs/fit-runs). */
export function fittingRuns(runs: readonly WorkerSource[], room: number): WorkerSource[] {
  return fitRuns(
    runs.map((source) => ({ source, name: source.name, path: source.path ?? source.name })),
    room,
  ).map((x) => x.source);
}
