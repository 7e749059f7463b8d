/**
 * Which run each run is compared with. People capture the same load with several tools and open
 * every file at once — `baseline/CPU….cpuprofile`, `baseline/perf.script.txt`, `ddtrace/CPU….cpuprofile`,
 * `ddtrace/perf.script.txt` — and want perf compared with perf: a `.cpuprofile` holds one thread's
 * JavaScript, perf the whole process, so "+337% vs baseline" across the two says nothing of the
 * agent. So a run of another format than the baseline's is compared with the run of its own
 * format in the baseline's folder, where there is exactly one: that run is the baseline of its
 * format. Where there is none (or several), the run is compared with the baseline, as the
 * comparison of two producers (which the panes warn about).
 */
import { folderPath } from './run-names';

export interface KindRun {
  id: string;
  /** where the run came from (see Run.path); the file name alone when the page cannot see more */
  path: string;
  /** the profile's format, once read */
  format: string | undefined;
}

export interface Comparisons {
  /** the run each run is compared with (none for the baseline and the baselines of other formats) */
  baselineOf: Map<string, string>;
  /** the runs that are the baseline of their format, besides the baseline itself */
  kindBaselines: Set<string>;
}

export function comparisons(runs: readonly KindRun[], baselineId: string | undefined): Comparisons {
  const baselineOf = new Map<string, string>();
  const kindBaselines = new Set<string>();
  const base = runs.find((r) => r.id === baselineId);
  if (!base) return { baselineOf, kindBaselines };
  const folder = folderPath(base.path);
  // the runs of each other format in the baseline's folder
  const inFolder = new Map<string, KindRun[]>();
  if (folder !== '' && base.format !== undefined)
    for (const r of runs) {
      if (r === base || r.format === undefined || r.format === base.format || folderPath(r.path) !== folder) continue;
      inFolder.set(r.format, [...(inFolder.get(r.format) ?? []), r]);
    }
  const ofFormat = new Map<string, string>();
  for (const [format, rs] of inFolder)
    if (rs.length === 1) {
      ofFormat.set(format, rs[0]!.id);
      kindBaselines.add(rs[0]!.id);
    }
  for (const r of runs) {
    if (r === base || kindBaselines.has(r.id)) continue;
    baselineOf.set(r.id, (r.format !== undefined && ofFormat.get(r.format)) || base.id);
  }
  return { baselineOf, kindBaselines };
}
