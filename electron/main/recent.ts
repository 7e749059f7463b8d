/**
 * The recent-files list: most recent first, persisted as JSON in the user-data folder with atomic
 * writes, so that a crash mid-write never loses it. Only main adds to it (dialog, command line,
 * verified drops), which is what lets `openRecent` trust a path because it is on the list.
 * Electron-free.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { writeFileAtomic } from './atomic-write';

export const RECENT_MAX = 12;

export interface RecentList {
  /** reads the persisted list; a missing or corrupt file gives an empty list */
  load(): Promise<void>;
  list(): string[];
  has(path: string): boolean;
  /** moves `paths` to the front (first of them first) and persists */
  add(paths: readonly string[]): Promise<void>;
  remove(path: string): Promise<void>;
  clear(): Promise<void>;
  /** called after every change; returns an unsubscribe function */
  onChange(cb: (paths: string[]) => void): () => void;
}

interface Persisted {
  version: 1;
  paths: string[];
}

export function createRecentList(file: string, max = RECENT_MAX): RecentList {
  let paths: string[] = [];
  const listeners = new Set<(paths: string[]) => void>();
  // Writes are chained so that two quick changes cannot rename over each other out of order.
  let writing: Promise<void> = Promise.resolve();

  function persist(): Promise<void> {
    const body: Persisted = { version: 1, paths: [...paths] };
    const next = writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomic(file, JSON.stringify(body, null, 2) + '\n');
    });
    writing = next.catch(() => undefined);
    for (const cb of listeners) cb([...paths]);
    return next;
  }

  return {
    async load() {
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Persisted>;
        paths = Array.isArray(parsed.paths)
          ? parsed.paths.filter((p): p is string => typeof p === 'string' && isAbsolute(p)).slice(0, max)
          : [];
      } catch {
        paths = [];
      }
    },
    list: () => [...paths],
    has: (path) => paths.includes(path),
    add(added) {
      const fresh = added.filter((p) => isAbsolute(p));
      if (fresh.length === 0) return Promise.resolve();
      paths = [...new Set([...fresh, ...paths])].slice(0, max);
      return persist();
    },
    remove(path) {
      if (!paths.includes(path)) return Promise.resolve();
      paths = paths.filter((p) => p !== path);
      return persist();
    },
    clear() {
      paths = [];
      return persist();
    },
    onChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
  };
}
