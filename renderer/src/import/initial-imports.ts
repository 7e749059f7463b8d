/**
 * The files named on the command line start importing with the page's first script, while the
 * app's own code still loads, parses and mounts: their workers fetch and parse the bytes in
 * parallel with it, and the app adopts them as runs once it is up (`openInitial` in ./open).
 * Nothing here may import the store or the UI: this module is in the page's first, small script.
 */
import type { ChosenItem } from '../../../shared/ipc/contract';
import { isWorkspaceFileName } from '../../../shared/workspace/workspace-name';
import { host } from '../host/host';
import { MAX_RUNS } from '../../../shared/runs/group-sources';
import { freshKeyPrefix } from '../workspace/stored-keys';
import { type PendingImport, beginImport, chosenToSource, dropWarmImportWorker, warmImportWorker } from './import-client';
import type { WorkerSource } from './protocol';
import { fittingRuns, runSources } from './run-sources';

/** A run whose import started early: the worker stores its profile for recovery under `key`. */
export interface StartedRun {
  source: WorkerSource;
  key: string;
  job: PendingImport;
}

/**
 * The host's initial items, the runs they make (`runs`, in order), and the imports started for
 * those of them that fit in MAX_RUNS panes (`fittingRuns`). None are started for a workspace
 * file (opening one replaces the comparison) or when the host has nothing to open.
 */
export interface InitialImports {
  items: ChosenItem[];
  runs: WorkerSource[];
  started: StartedRun[];
}

let initial: Promise<InitialImports> | undefined;
let taken = false;

/**
 * Asks the host for the files named on the command line and starts importing them. Once. The
 * first file's worker starts while the host is asked (its script loads and compiles meanwhile),
 * where the worker can fetch the file itself; it ends if there is no file to import. Resolves
 * once the imports have started (or there are none).
 */
export function startInitialImports(): Promise<void> {
  if (!initial) {
    if (host.fileUrl) warmImportWorker();
    initial = host.initialItems().then(
      (items) => {
        try {
          return startRuns(items);
        } finally {
          dropWarmImportWorker();
        }
      },
      () => {
        dropWarmImportWorker();
        return { items: [], runs: [], started: [] };
      },
    );
  }
  return initial.then(() => undefined);
}

function startRuns(items: ChosenItem[]): InitialImports {
  const sources = items.map(chosenToSource);
  if (sources.some((s) => s.kind !== 'folder' && s.kind !== 'threads' && isWorkspaceFileName(s.name)))
    return { items, runs: [], started: [] };
  const runs = runSources(sources);
  const prefix = freshKeyPrefix();
  const started = fittingRuns(runs, MAX_RUNS).map((source, i) => {
    const key = `${prefix}${i}`;
    return { source, key, job: beginImport(source, key) };
  });
  return { items, runs, started };
}

/**
 * The initial imports, handed over once: a second call (React runs an effect twice in
 * development) gets none, so no file opens twice.
 */
export async function takeInitialImports(): Promise<InitialImports> {
  startInitialImports();
  const got = await initial!;
  if (taken) return { items: [], runs: [], started: [] };
  taken = true;
  return got;
}
