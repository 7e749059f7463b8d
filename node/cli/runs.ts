/**
 * The runs named on the command line. Each path is a run, except the per-thread `.cpuprofile`
 * files of one Node.js process (`CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`, as `node
 * --cpu-prof` writes them for a program with `worker_threads`), named together or as the folder
 * that holds them: those are one run with a thread per file, the main thread first, as in the app
 * (`shared/runs/group-sources.ts`).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ALL_THREADS, threadKey, threadView } from '../../shared/model/threads';
import type { ImportOptions } from '../../shared/import/importer';
import type { Profile } from '../../shared/model/types';
import { folderAsRuns, groupSources, threadFilesRun } from '../../shared/runs/group-sources';
import { CliError } from './errors';
import { STDIN, importAt, loadThread, sayThread } from './load';
import { fileSource } from './node-source';
import type { Sink } from './output';

/** A run named on the command line: `label` names it in messages and output. */
export interface RunArg {
  /** the path named: a file, a folder, or the main thread's file of a process's files */
  label: string;
  /** a process's per-thread files, the main thread's first; absent for a run of one path */
  files?: string[];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The per-thread files of one process when they are every profile a folder holds (as the app
 * takes a folder, `folderAsRuns`), or undefined: a folder with other profiles is read as before.
 */
function folderThreads(dir: string): string[] | undefined {
  const names = folderAsRuns(readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile()));
  if (names === 'folder') return undefined;
  const groups = groupSources(names.map((name) => ({ name, path: join(dir, name) })));
  return groups.length === 1 && groups[0]!.kind === 'threads' ? groups[0]!.items.map((i) => i.path!) : undefined;
}

/** The paths as runs, in the order named (a process's files where the first of them is). */
export function runArgs(paths: readonly string[]): RunArg[] {
  const items = paths.map((path) => ({ name: path === STDIN || isFolder(path) ? '' : basename(path), path }));
  const out: RunArg[] = [];
  for (const g of groupSources(items)) {
    if (g.kind === 'threads') out.push({ label: g.items[0]!.path, files: g.items.map((i) => i.path) });
    else if (g.kind === 'folder') out.push(...g.items.map((i) => ({ label: i.path })));
    else {
      const files = g.item.path !== STDIN && isFolder(g.item.path) ? folderThreads(g.item.path) : undefined;
      out.push(files ? { label: g.item.path, files } : { label: g.item.path });
    }
  }
  return out;
}

/** `runArgs(paths)`, which must be `count` runs; else a `CliError` saying what `command` takes. */
export function expectRuns(paths: readonly string[], count: number, command: string, takes: string): RunArg[] {
  const runs = runArgs(paths);
  if (runs.length !== count) throw new CliError(`${command} takes ${takes} (see flamelens ${command} --help)`);
  return runs;
}

/** A process's per-thread files read as one profile of every thread, each under its root frame. */
export async function readThreadFiles(run: RunArg & { files: string[] }): Promise<Profile> {
  const read = await Promise.all(run.files.map(async (f) => ({ name: basename(f), profile: await importAt(f, fileSource(f)) })));
  return threadFilesRun(basename(run.label), read);
}

/**
 * The thread `choice` of a run read from per-thread files: `PID:TID`, a thread name (the
 * busiest of that name), `all`, or by default the main thread.
 */
function chooseThread(label: string, all: Profile, choice?: string): Profile {
  if (choice === ALL_THREADS) return all;
  const threads = all.meta.threads ?? [];
  const named = threads.filter((t) => t.name === choice).sort((a, b) => b.samples - a.samples);
  const t = choice === undefined ? threads[0] : (threads.find((x) => threadKey(x) === choice) ?? named[0]);
  if (!t) {
    const list = threads.map((x) => `${x.name} ${threadKey(x)} (${x.samples} samples)`).join(', ');
    throw new CliError(`${label}: no thread "${choice}" has samples in these files; their threads: ${list}, or all`);
  }
  return threadView(all, threadKey(t))!;
}

/**
 * The profile of a run as a command uses it: one path as `loadThread` reads it, a process's
 * files as the thread chosen of them; says on `stderr` which thread was used (`sayThread`).
 */
export async function loadRun(run: RunArg, stderr: Sink, perfEvent?: string, thread?: string, more?: ImportOptions): Promise<Profile> {
  if (!run.files) return loadThread(run.label, stderr, perfEvent, thread, more);
  const p = chooseThread(run.label, await readThreadFiles({ ...run, files: run.files }), thread);
  sayThread(run.label, p, stderr);
  return p;
}
