/**
 * A run of several repeats in a workspace (a folder of profiles of one variant, or what
 * `flamelens record --profile-repeat K` recorded): the run's profile is their mean, and each
 * repeat's profile is kept too, so that the file opens with the intervals of the diff. In a
 * streamed file each repeat's profile is a block of its own after its run's (./workspace-file);
 * in one JSON text they are inside `repeats.profiles`.
 */
import type { Profile } from '../model/types';
import type { Json, JsonCheck } from './json-check';

export interface WorkspaceRepeats {
  /** each repeat's profile, in order */
  profiles: Profile[];
  /** each repeat's file name */
  names: string[];
  /** the repeats that could not be read, with why */
  failed: { name: string; error: string }[];
  /** the repeat the pane shows alone; absent: their mean */
  shown?: number;
}

export const MAX_REPEATS = 1000;
const MAX_NAME = 10_000;

/** The document's form of a run's repeats; `embed` gives a profile's JSON where profiles are embedded. */
export function repeatsDocument(r: Omit<WorkspaceRepeats, 'profiles'> & { profiles?: Profile[] }, embed?: (p: Profile) => Json): Json {
  return {
    names: r.names,
    failed: r.failed.map(({ name, error }) => ({ name, error })),
    ...(r.shown !== undefined ? { shown: r.shown } : {}),
    ...(embed && r.profiles ? { profiles: r.profiles.map(embed) } : {}),
  };
}

function names(c: JsonCheck, v: Json, path: string): string[] {
  const list = c.arr(v.names, `${path}.names`, MAX_REPEATS).map((n, i) => c.str(n, `${path}.names[${i}]`, MAX_NAME));
  if (list.length === 0) c.fail(`${path}.names`, 'is empty (a run of repeats holds at least one)');
  return list;
}

/** How many profile blocks follow a run of the document in a streamed file: its own, and one per repeat. */
export function profileBlocks(c: JsonCheck, run: unknown, path: string): number {
  const r = c.obj(run, path);
  return r.repeats === undefined ? 1 : 1 + names(c, c.obj(r.repeats, `${path}.repeats`), `${path}.repeats`).length;
}

/**
 * A run's repeats read from the document, every field checked; `profileAt(k, path)` reads the
 * k-th repeat's profile (from beside the document, or from `embedded[k]` inside it).
 */
export function readRepeats(
  c: JsonCheck,
  v: unknown,
  path: string,
  profileAt: (k: number, embedded: unknown, path: string) => Profile,
): WorkspaceRepeats {
  const o = c.obj(v, path);
  const list = names(c, o, path);
  const embedded = o.profiles === undefined ? undefined : c.arr(o.profiles, `${path}.profiles`, list.length);
  if (embedded && embedded.length !== list.length)
    c.fail(`${path}.profiles`, `holds ${embedded.length} profiles for ${list.length} repeats`);
  const out: WorkspaceRepeats = {
    names: list,
    profiles: list.map((_, k) => profileAt(k, embedded?.[k], `${path}.profiles[${k}]`)),
    failed: c.arr(o.failed ?? [], `${path}.failed`, MAX_REPEATS).map((x, i) => {
      const f = c.obj(x, `${path}.failed[${i}]`);
      return { name: c.str(f.name, `${path}.failed[${i}].name`, MAX_NAME), error: c.str(f.error, `${path}.failed[${i}].error`, MAX_NAME) };
    }),
  };
  if (o.shown !== undefined) out.shown = c.num(o.shown, `${path}.shown`, { int: true, min: 0, max: list.length - 1 });
  return out;
}

/** A workspace's profiles in file order: each run's, then its repeats'. */
export function profilesInOrder(runs: readonly { profile: Profile; repeats?: WorkspaceRepeats }[]): Profile[] {
  return runs.flatMap((r) => [r.profile, ...(r.repeats?.profiles ?? [])]);
}

/** How many profile blocks runs of a head have (each its own, and one per repeat). */
export function blockCount(runs: readonly { repeats?: { names: readonly string[] } }[]): number {
  return runs.reduce((n, r) => n + 1 + (r.repeats?.names.length ?? 0), 0);
}
