/**
 * Saving and opening `.flamelens` workspaces: the runs (embedded), baseline, view settings,
 * search, focus, time ranges and annotations, as shared/workspace encodes them.
 */
import { type Workspace, type WorkspaceHead, WORKSPACE_EXTENSION } from '../../../shared/workspace/workspace';
import type { WorkerFile } from '../import/protocol';
import { openInWorker, saveInWorker } from './file-client';
import { adoptProfileWrite, freshKeyPrefix, profileWriteEnded, storedProfileKey } from './stored-keys';
import { pathsToKeep } from '../../../shared/runs/run-names';
import { profilesInOrder } from '../../../shared/workspace/workspace-repeats';
import { exportFileName } from '../host/file-name';
import { host } from '../host/host';
import { repeatStatisticsLoaded } from '../store/derived-repeats';
import type { AppState } from '../store/store';
import { useStore } from '../store/store';

/** The workspace of the comparison as it stands (ready runs only). */
export function collectWorkspace(s: AppState): Workspace {
  const ready = s.runs.filter((r) => r.status === 'ready' && r.profile);
  // What names the runs, without the folders they all share (a home folder is not for the file's readers).
  const paths = pathsToKeep(ready.map((r) => r.path ?? r.fileName));
  return {
    savedAt: new Date().toISOString(),
    // A run of every thread keeps them all, and which one it shows.
    runs: ready.map((r, i) => ({
      id: r.id,
      title: r.title,
      fileName: r.fileName,
      path: paths[i]!,
      ...(r.measured ? { measured: r.measured } : {}),
      ...(r.allThreads && r.thread !== undefined ? { profile: r.allThreads, thread: r.thread } : { profile: r.profile! }),
      // A run of repeats keeps each of them, their mean as its profile, and which one it shows.
      ...(r.repeats
        ? {
            profile: r.repeats.mean,
            repeats: {
              profiles: r.repeats.profiles,
              names: r.repeats.names,
              failed: r.repeats.failed,
              ...(r.repeat !== undefined ? { shown: r.repeat } : {}),
            },
          }
        : {}),
    })),
    baselineIndex:
      ready.length === 0
        ? -1
        : Math.max(
            0,
            ready.findIndex((r) => r.id === s.baselineId),
          ),
    view: {
      layout: s.layout,
      orientation: s.orientation,
      sort: s.sort,
      palette: s.palette,
      focus: s.focus,
      query: s.query,
      filterMode: s.filterMode,
      diffView: s.diffView,
      normalize: s.normalize,
      diffMeasure: s.diffMeasure,
      noisePercent: s.noisePercent,
      matchEntry: s.matchEntry,
    },
    annotations: s.annotationHistory.present,
    ranges: Object.entries(s.ranges)
      .filter(([id]) => ready.some((r) => r.id === id))
      .map(([runId, r]) => (r.cells ? { runId, start: r.start, end: r.end, cells: r.cells } : { runId, start: r.start, end: r.end })),
  };
}

let nextId = 1;

/**
 * Replaces the comparison with a workspace's (the runs get fresh ids; notes and ranges follow
 * them). Returns the new id of each of the workspace's runs.
 */
export function restoreWorkspace(ws: Workspace): Map<string, string> {
  const s = useStore.getState();
  for (const r of [...s.runs]) s.runRemoved(r.id);
  const ids = new Map<string, string>();
  for (const r of ws.runs) {
    const id = `ws-${nextId++}`;
    ids.set(r.id, id);
    s.runAdded(id, r.fileName, r.path);
    const repeats = r.repeats && { profiles: r.repeats.profiles, names: r.repeats.names, failed: r.repeats.failed };
    s.runLoaded(id, r.profile, r.thread, repeats);
    if (r.repeats?.shown !== undefined) s.repeatChosen(id, r.repeats.shown);
    if (r.measured) s.runMeasured(id, r.measured);
  }
  // Once all are in: a saved title other than the one the paths give is the user's.
  for (const r of ws.runs) s.runRenamed(ids.get(r.id)!, r.title);
  const base = ws.runs[ws.baselineIndex];
  if (base) s.baselineChosen(ids.get(base.id)!);
  const v = ws.view;
  useStore.setState({
    layout: v.layout,
    orientation: v.orientation,
    sort: v.sort,
    palette: v.palette,
    focus: v.focus,
    filterMode: v.filterMode,
    diffView: v.diffView,
    normalize: v.normalize,
    diffMeasure: v.diffMeasure,
    noisePercent: v.noisePercent,
    matchEntry: v.matchEntry,
    ranges: Object.fromEntries(
      ws.ranges
        .filter((r) => ids.has(r.runId))
        .map((r) => [ids.get(r.runId)!, r.cells ? { start: r.start, end: r.end, cells: r.cells } : { start: r.start, end: r.end }]),
    ),
  });
  // (a regular expression once its engine has loaded)
  s.queryChanged(v.query);
  if (ws.dropped) s.noticeShown(ws.dropped.join(' '));
  s.annotationsReplaced({
    ...ws.annotations,
    items: ws.annotations.items.map((a) => (a.runId !== undefined && ids.has(a.runId) ? { ...a, runId: ids.get(a.runId)! } : a)),
  });
  return ids;
}

const savedListeners = new Set<(where: string) => void>();

/** Calls `cb` with where the comparison went each time it is saved; returns a function that stops it. */
export function onWorkspaceSaved(cb: (where: string) => void): () => void {
  savedListeners.add(cb);
  return () => savedListeners.delete(cb);
}

/**
 * Saves the comparison as a `.flamelens` file. The file is encoded in a worker that reads the
 * profiles from the browser's store, so the window copies and encodes none of them.
 */
export async function saveWorkspace(): Promise<string | null> {
  const s = useStore.getState();
  const { runs, ...rest } = collectWorkspace(s);
  const head: WorkspaceHead = {
    ...rest,
    runs: runs.map(({ profile: _, repeats, ...r }) => {
      if (!repeats) return r;
      const { profiles: __, ...kept } = repeats;
      return { ...r, repeats: kept };
    }),
  };
  // The file holds each run's profile, then its repeats' (not in the store: the window sends them).
  const blob = await saveInWorker(
    head,
    runs.flatMap((r) => [storedProfileKey(r.id), ...(r.repeats?.profiles.map(() => undefined) ?? [])]),
    profilesInOrder(runs),
  );
  const title = s.annotationHistory.present.title || 'comparison';
  const where = await host.saveFile({
    defaultName: exportFileName(title, WORKSPACE_EXTENSION),
    filters: [{ name: 'Flamelens workspace', extensions: [WORKSPACE_EXTENSION] }],
    data: blob,
  });
  if (where !== null) for (const cb of savedListeners) cb(where);
  return where;
}

/**
 * Opens a `.flamelens` file in place of the comparison: read in a worker, which also stores each
 * run's profile for crash recovery. Rejects with a message naming the file when it cannot be read.
 */
export async function openWorkspaceFile(file: WorkerFile): Promise<void> {
  const prefix = freshKeyPrefix();
  const { workspace, stored } = await openInWorker(file, prefix);
  if (workspace.runs.some((r) => r.repeats)) await repeatStatisticsLoaded();
  const ids = restoreWorkspace(workspace);
  const runIds = workspace.runs.map((r) => ids.get(r.id)!);
  runIds.forEach((id, i) => adoptProfileWrite(id, `${prefix}${i}`));
  const ok = await stored;
  runIds.forEach((id, i) => profileWriteEnded(id, ok[i] === true));
}
