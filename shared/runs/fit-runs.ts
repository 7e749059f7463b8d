/**
 * Which runs to open when more are offered than there is room for. Two run folders of five
 * captures each (`baseline/` and `ddtrace/`, each with a `.cpuprofile`, perf, a trace, a heap
 * profile…) make ten runs for six panes: opened in order, the baseline's five took five panes and
 * the agent's run one, so nothing but one pair could be compared. Where the runs come from
 * several folders, the same captures are opened from each folder instead: the captures every
 * folder has, CPU profiles first (`.cpuprofile`, perf, 0x, folded, pprof), then traces, then heap
 * profiles, one of each kind before a second of any, as many as fit for every folder; what room
 * is left takes the others in order. Runs keep their order.
 */
import { folderPath } from './run-names';

export interface FitRun {
  /** where the run came from (a path; the folder is what is before its last `/` or `\`) */
  path: string;
  /** its file or folder name */
  name: string;
}

/** What a capture is, the same in every folder: its name with the numbers left out (`CPU.#.#.#.#.#.cpuprofile`, `perf.F#.script.txt`). */
function captureOf(name: string): string {
  return name.replace(/\.gz$/i, '').replace(/\d+/g, '#');
}

/** The order kinds of capture are opened in: CPU time first (what an agent costs), then traces, then memory. */
function rankOf(capture: string): number {
  if (/\.cpuprofile$/i.test(capture)) return 0;
  if (/perf|\.script$/i.test(capture)) return 1;
  if (/(^|\.)#?x$/i.test(capture) || /\.(folded|collapsed|stacks)$/i.test(capture)) return 2;
  if (/\.(pb|pprof|prof)$/i.test(capture)) return 3;
  if (/trace|\.log$/i.test(capture) || /\.json$/i.test(capture)) return 4;
  if (/\.heapprofile$/i.test(capture)) return 5;
  return 6;
}

/** The runs to open, at most `room` of them, in their order (see above); all of them where they fit. */
export function fitRuns<T extends FitRun>(runs: readonly T[], room: number): T[] {
  if (runs.length <= room) return [...runs];
  const folders = [...new Set(runs.map((r) => folderPath(r.path)))];
  const chosen = new Set<T>();
  if (folders.length >= 2 && room >= folders.length) {
    // each folder's first run of each capture
    const byFolder = folders.map((f) => {
      const m = new Map<string, T>();
      for (const r of runs) if (folderPath(r.path) === f && !m.has(captureOf(r.name))) m.set(captureOf(r.name), r);
      return m;
    });
    const shared = [...byFolder[0]!.keys()].filter((c) => byFolder.every((m) => m.has(c)));
    // one of each kind before a second of any, each kind in its rank, then as the first folder lists them
    const seen = new Map<number, number>();
    const ordered = shared
      .map((c, i) => {
        const rank = rankOf(c);
        const nth = seen.get(rank) ?? 0;
        seen.set(rank, nth + 1);
        return { c, rank, nth, i };
      })
      .sort((a, b) => a.nth - b.nth || a.rank - b.rank || a.i - b.i);
    for (const { c } of ordered.slice(0, Math.floor(room / folders.length))) for (const m of byFolder) chosen.add(m.get(c)!);
  }
  for (const r of runs) if (chosen.size < room) chosen.add(r);
  return runs.filter((r) => chosen.has(r));
}
