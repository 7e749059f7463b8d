/**
 * Which runs' profiles are in the browser's store (./profile-store), and under which key: what
 * crash recovery records, and what saving a workspace reads back from a worker instead of
 * copying profiles out of the window.
 */

/** Profiles of this page are stored under `<page>:<run id>`, so two pages never share a key. */
const PAGE = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;

/** Runs whose profile is stored under another key: runs brought back from an earlier page, or opened from a workspace. */
const keyOf = new Map<string, string>();

/** Keys whose profile is stored, and those a worker is writing now. */
export const stored = new Set<string>();
export const writing = new Set<string>();

export function profileKey(runId: string): string {
  return keyOf.get(runId) ?? `${PAGE}:${runId}`;
}

/** A prefix for keys no run of this page has: a workspace's runs are stored under it before they have ids. */
let nextPrefix = 1;
export function freshKeyPrefix(): string {
  return `${PAGE}:file-${nextPrefix++}:`;
}

/** The run's profile is in the store already, under `key`. */
export function adoptStoredProfile(runId: string, key: string): void {
  keyOf.set(runId, key);
  stored.add(key);
}

/** A worker is storing the run's profile under `key` (`profileWriteEnded` says how that went). */
export function adoptProfileWrite(runId: string, key: string): void {
  keyOf.set(runId, key);
  writing.add(key);
}

/** A worker started storing a run's profile. */
export function profileWriteStarted(runId: string): void {
  writing.add(profileKey(runId));
}

/** A worker finished storing a run's profile (or failed to: it is stored from the window later). */
export function profileWriteEnded(runId: string, ok: boolean): void {
  const key = profileKey(runId);
  writing.delete(key);
  if (ok) stored.add(key);
}

/** The key the run's profile is (or is being) stored under, or undefined when it is not in the store. */
export function storedProfileKey(runId: string): string | undefined {
  const key = profileKey(runId);
  return stored.has(key) || writing.has(key) ? key : undefined;
}
