/** Turns chosen or dropped files into runs: one pane and one worker each. */
import type { ChosenItem } from '../../../shared/ipc/contract';
import { formatImportError } from '../../../shared/import/errors';
import { MAX_RUNS } from '../../../shared/runs/group-sources';
import { pathSegments } from '../../../shared/runs/run-names';
import { repeatStatisticsLoaded } from '../store/derived-repeats';
import { useStore } from '../store/store';
import { type ImportJob, beginImport, chosenToSource } from './import-client';
import { type StartedRun, takeInitialImports } from './initial-imports';
import type { WorkerFile, WorkerSource } from './protocol';
import { fittingRuns, runSources } from './run-sources';
import { isWorkspaceFileName, workspaceSizeProblem } from '../../../shared/workspace/workspace';
import { openWorkspaceFile } from '../workspace/workspace-io';
import { adoptProfileWrite, profileKey, profileWriteEnded, profileWriteStarted } from '../workspace/stored-keys';

const jobs = new Map<string, ImportJob>();
let nextId = 1;

/** A `.flamelens` workspace among the sources replaces the comparison instead of becoming a run. */
async function openWorkspaceSource(src: WorkerFile): Promise<void> {
  try {
    const size = src.kind === 'file' ? src.file.size : src.size;
    const tooLarge = workspaceSizeProblem(src.name, size);
    if (tooLarge) throw new Error(tooLarge);
    await openWorkspaceFile(src);
  } catch (e) {
    useStore.getState().noticeShown(e instanceof Error ? e.message : String(e));
  }
}

/** Opens the sources as runs; returns the new runs' ids. */
export function openSources(all: WorkerSource[]): string[] {
  const workspace = all.find((x): x is WorkerFile => (x.kind === 'file' || x.kind === 'token') && isWorkspaceFileName(x.name));
  if (workspace) {
    void openWorkspaceSource(workspace);
    return [];
  }
  return openRuns(runSources(all));
}

/**
 * Opens the runs that fit (`fittingRuns`; a notice names the others); an import already under way
 * for one of them (`started`, ./initial-imports) is adopted instead of a new one.
 */
function openRuns(runs: WorkerSource[], started: readonly StartedRun[] = []): string[] {
  const s = useStore.getState();
  const room = Math.max(MAX_RUNS - s.runs.length, 0);
  const opened = fittingRuns(runs, room);
  if (runs.length > room) {
    const left = runs.filter((r) => !opened.includes(r)).map((r) => shortPath(r.path ?? r.name));
    s.noticeShown(`Flamelens compares up to ${MAX_RUNS} runs at once; not opened: ${left.join(', ')}. Remove a run to make room.`);
  }
  return opened.map((source) =>
    openRun(
      source,
      started.find((x) => x.source === source),
    ),
  );
}

/** A run's folder and name (`baseline/perf.script.txt`), for a message. */
function shortPath(path: string): string {
  return pathSegments(path).slice(-2).join('/');
}

function openRun(source: WorkerSource, started: StartedRun | undefined): string {
  const id = `run-${nextId++}`;
  useStore.getState().runAdded(id, source.name, source.path);
  if (started) adoptProfileWrite(id, started.key);
  else profileWriteStarted(id);
  const job = started?.job ?? beginImport(source, profileKey(id));
  jobs.set(id, job);
  job.listen({
    progress: (read, size) => useStore.getState().runProgressed(id, read, size),
    done: (profile, thread, repeats) => {
      jobs.delete(id);
      if (!repeats) return useStore.getState().runLoaded(id, profile, thread);
      void repeatStatisticsLoaded().then(() => useStore.getState().runLoaded(id, profile, thread, repeats));
    },
    failed: (error) => {
      jobs.delete(id);
      profileWriteEnded(id, false);
      useStore.getState().runFailed(id, formatImportError(error));
    },
    stored: (ok) => profileWriteEnded(id, ok),
  });
  return id;
}

/**
 * Opens the files named on the command line, adopting the imports the page's first script
 * started for them. Only into an empty comparison: otherwise (the person dropped files before
 * the app was up) those imports stop and nothing opens.
 */
export async function openInitial(): Promise<string[]> {
  const { items, runs, started } = await takeInitialImports();
  if (useStore.getState().runs.length > 0) {
    for (const run of started) run.job.cancel();
    return [];
  }
  if (started.length === 0) return openChosen(items);
  return openRuns(runs, started);
}

export function openChosen(items: ChosenItem[]): string[] {
  return openSources(items.map(chosenToSource));
}

/** Stops a run's import and takes its pane away: nothing was made that could be lost. */
export function cancelImport(id: string): void {
  jobs.get(id)?.cancel();
  jobs.delete(id);
  useStore.getState().importCancelled(id);
}

/**
 * Files and folders from a drop; folders (a `<pid>.0x` output) are read one level deep. A page
 * cannot see where a dropped file lives, but a dropped folder's entries have paths within the
 * drop (`/ddtrace/0x/ticks.json`): those name the runs.
 */
export async function sourcesFromDrop(dt: DataTransfer): Promise<WorkerSource[]> {
  const out: WorkerSource[] = [];
  const entries = [...dt.items].map((it) => (it.kind === 'file' ? it.webkitGetAsEntry?.() : null));
  const files = [...dt.files];
  for (let i = 0; i < files.length; i++) {
    const entry = entries[i];
    if (entry?.isDirectory) {
      const dir = entry as FileSystemDirectoryEntry;
      const inner = await readDirectoryFiles(dir);
      out.push({
        kind: 'folder',
        name: dir.name,
        path: dir.fullPath,
        files: inner.map(({ file, path }) => ({ kind: 'file', file, name: file.name, path })),
      });
    } else {
      const f = files[i]!;
      out.push({ kind: 'file', file: f, name: f.name, path: entry?.fullPath || f.name });
    }
  }
  return out;
}

/**
 * The drop's sources with the full paths the host could see (Electron: one per dropped file or
 * folder, in the order of the drop; '' where not known), so that runs are named by their folders.
 */
export function withDiskPaths(sources: WorkerSource[], paths: readonly string[]): WorkerSource[] {
  return sources.map((src, i) => {
    const path = paths[i];
    if (!path) return src;
    if (src.kind !== 'folder') return { ...src, path };
    const sep = path.includes('/') || !path.includes('\\') ? '/' : '\\';
    return { ...src, path, files: src.files.map((f) => ({ ...f, path: `${path}${sep}${f.name}` })) };
  });
}

async function readDirectoryFiles(dir: FileSystemDirectoryEntry): Promise<{ file: File; path: string }[]> {
  const reader = dir.createReader();
  const entries: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  const files = entries.filter((e): e is FileSystemFileEntry => e.isFile);
  return Promise.all(
    files.map((e) => new Promise<{ file: File; path: string }>((res, rej) => e.file((file) => res({ file, path: e.fullPath }), rej))),
  );
}
