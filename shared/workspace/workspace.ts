/**
 * The `.flamelens` workspace file: a whole comparison — the runs themselves (embedded, so the
 * file opens anywhere without the original profiles), which is the baseline, the view settings,
 * search, focus, time ranges and annotations.
 *
 * The document: UTF-8 JSON,
 *   { "format": "flamelens-workspace", "version": 3, "savedAt": ISO-8601, "runs": [...], ... }
 * with `format` first so that the decompressed head identifies the file (`isWorkspace`). Profiles
 * use ./profile-codec's compact form; how they and the document are laid out in the file, and
 * streamed, is ./workspace-file's. Older versions are brought forward one step at a time by
 * `MIGRATIONS[v]` before validation, so validation only ever knows the current shape; a file from
 * a newer Flamelens is refused with a message saying so.
 */
import { type Anchor, type Annotation, type AnnotationDoc, MAX_TEXT, normalizeRegion } from '../annotate/annotations';
import { fineDensity, hasTimestamps } from '../heatmap/heatmap';
import type { Profile } from '../model/types';
import { type Json, type JsonCheck, describe } from './json-check';
import { ALL_THREADS, THREADS_TOGETHER, hasThreadRoots, threadKey } from '../model/threads';
import { weighByDefault } from '../model/weigh';
import { profileFromJson, profileToJson } from './profile-codec';
import { type Measured, readMeasured } from '../runs/measured';
import { type WorkspaceRepeats, readRepeats, repeatsDocument } from './workspace-repeats';

export { WorkspaceError } from './json-check';
export { WORKSPACE_EXTENSION, isWorkspaceFileName } from './workspace-name';

export const WORKSPACE_FORMAT = 'flamelens-workspace';
/**
 * 1: one JSON text, profiles embedded; 2: profiles may follow the document, their columns as bytes
 * (./workspace-file); 3: a run may hold repeats, each with a profile of its own (./workspace-repeats),
 * which a reader of version 2 would take for the next run's.
 */
export const WORKSPACE_VERSION = 3;
/** More than the app shows at once, so a file from a later, roomier Flamelens still opens. */
export const MAX_WORKSPACE_RUNS = 64;
const MAX_ANNOTATIONS = 10_000;
const MAX_PATH = 10_000;
/** Limit of a workspace read as one JSON text (version 1): below what one JS string can hold. */
export const MAX_WORKSPACE_BYTES = 512 * 1024 * 1024;
/** Limit of a workspace file's size: a streamed file holds its profiles' columns as bytes, not as one text. */
export const MAX_WORKSPACE_FILE_BYTES = 16 * 1024 ** 3;

export interface WorkspaceRun {
  /** the run's id in the app when saved; annotations and ranges refer to runs by it */
  id: string;
  title: string;
  fileName: string;
  /**
   * where the run came from, without the folders all runs share (shared/runs/run-names
   * `pathsToKeep`): what names the runs when more are opened. Absent in older files.
   */
  path?: string;
  /**
   * where the profile holds every thread of the file, each under a root frame (model/threads):
   * the thread shown, `PID:TID`, `all` or `together`. Absent in older files, which hold one thread.
   */
  thread?: string;
  /** what `flamelens record` measured of this variant under load (shared/runs/measured). Absent in older files. */
  measured?: Measured;
  /** the run's profile: with `repeats`, their mean */
  profile: Profile;
  /** a run of several repeats of one variant (./workspace-repeats). Absent in older files. */
  repeats?: WorkspaceRepeats;
}

/** The view settings saved with a workspace; the same values as the app store's. */
export interface WorkspaceView {
  layout: 'rows' | 'columns';
  orientation: 'flame' | 'icicle';
  sort: 'name' | 'weight';
  palette: 'default' | 'colorblind';
  /** frame keys from the root to the focused frame */
  focus: string[];
  query: string;
  filterMode: 'highlight' | 'only' | 'hide';
  diffView: 'off' | 'diff' | 'removed' | 'merged';
  normalize: 'absolute' | 'relative';
  diffMeasure: 'total' | 'self';
  noisePercent: number;
  /** whether each run's entry script is matched with the baseline's as the same frame */
  matchEntry: boolean;
}

export const DEFAULT_VIEW: WorkspaceView = {
  layout: 'rows',
  orientation: 'flame',
  sort: 'name',
  palette: 'default',
  focus: [],
  query: '',
  filterMode: 'highlight',
  diffView: 'off',
  normalize: 'absolute',
  diffMeasure: 'total',
  noisePercent: 0.1,
  matchEntry: true,
};

/**
 * What a file that lacks a setting whose default has changed was showing when it was saved: it
 * opens as it was then. Workspaces written before absolute became the default normalization, and
 * before entry scripts were matched, showed relative deltas and unmatched entry scripts.
 */
const SAVED_BEFORE_FIELD: Pick<WorkspaceView, 'normalize' | 'matchEntry'> = { normalize: 'relative', matchEntry: false };

/** A time range picked on a run (heatmap selection), in seconds on the run's own clock, [start, end). */
export interface WorkspaceRange {
  runId: string;
  start: number;
  end: number;
  /** the heatmap cells it was picked from (so exactly those cells' samples are used again) */
  cells?: { a: { column: number; row: number }; b: { column: number; row: number }; rows: number; includeIdle: boolean };
}

export interface Workspace {
  /** ISO 8601; set by `encodeWorkspace` when empty */
  savedAt: string;
  runs: WorkspaceRun[];
  /** index into `runs`; -1 when there is no baseline (no runs) */
  baselineIndex: number;
  view: WorkspaceView;
  annotations: AnnotationDoc;
  ranges: WorkspaceRange[];
  /**
   * Set when reading: what the file held that its runs cannot do and was left out, one sentence
   * each naming the file and the place (a time range on a run without sample timestamps).
   */
  dropped?: string[];
}

/** A workspace whose runs' profiles are elsewhere (written or read one at a time). */
export type WorkspaceHead = Omit<Workspace, 'runs'> & {
  runs: (Omit<WorkspaceRun, 'profile' | 'repeats'> & { repeats?: Omit<WorkspaceRepeats, 'profiles'> })[];
};

export type Migration = (doc: Json) => Json;
/**
 * `MIGRATIONS[v]` turns a version-v document into a version-(v+1) one. Versions 2 and 3 read
 * every older document as it is (they only add where profiles may be).
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  1: (doc) => ({ ...doc, version: 2 }),
  // Version 3 only adds repeats; a version-2 document has none.
  2: (doc) => ({ ...doc, version: 3 }),
};

/**
 * Why a workspace file of `size` bytes is not read at all, or undefined when it may be: its
 * contents can only be larger than the file, so a file past the limit is refused before a byte
 * of it is read (a sparse 3 GB file took the tab to 4.8 GB).
 */
export function workspaceSizeProblem(fileName: string, size: number): string | undefined {
  if (!(size > MAX_WORKSPACE_FILE_BYTES)) return undefined;
  const gib = (size / 1024 ** 3).toFixed(1);
  return `${fileName}: the file is ${gib} GiB; a Flamelens workspace holds at most ${MAX_WORKSPACE_FILE_BYTES / 1024 ** 3} GiB, so it was not read`;
}

/** Whether the decompressed head of a file (as `openSource` gives it) is a workspace. */
export function isWorkspace(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"format"\s*:\s*"flamelens-workspace"/.test(head);
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * The document of a workspace, its settings checked field by field; with `embed`, each run's
 * profile inside it as base64 (one JSON text, as version 1 was written), else without profiles.
 */
export function workspaceDocument(ws: WorkspaceHead | Workspace, embed = false): Json {
  return {
    format: WORKSPACE_FORMAT,
    version: WORKSPACE_VERSION,
    savedAt: ws.savedAt || new Date().toISOString(),
    runs: ws.runs.map((r) => ({
      id: r.id,
      title: r.title,
      fileName: r.fileName,
      ...(r.path !== undefined ? { path: r.path } : {}),
      ...(r.thread !== undefined ? { thread: r.thread } : {}),
      ...(r.measured !== undefined ? { measured: r.measured } : {}),
      ...(r.repeats ? { repeats: repeatsDocument(r.repeats, embed ? (p) => profileToJson(p) : undefined) } : {}),
      ...(embed && 'profile' in r ? { profile: profileToJson(r.profile) } : {}),
    })),
    baselineIndex: ws.baselineIndex,
    // Field by field: a caller may hand in the whole store state as `view`; only settings are saved.
    view: Object.fromEntries(Object.keys(DEFAULT_VIEW).map((k) => [k, ws.view[k as keyof WorkspaceView]])),
    annotations: {
      title: ws.annotations.title,
      caption: ws.annotations.caption,
      items: ws.annotations.items.map(({ id, kind, text, anchor, runId, createdAt }) => ({ id, kind, text, anchor, runId, createdAt })),
    },
    ranges: ws.ranges.map(({ runId, start, end, cells }) => (cells ? { runId, start, end, cells } : { runId, start, end })),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface DecodeOptions {
  /** defaults to `MIGRATIONS` (tests pass their own) */
  migrations?: Readonly<Record<number, Migration>>;
  /** decompressed bytes read at most (default: `MAX_WORKSPACE_BYTES` for one JSON text, more for a streamed file) */
  maxBytes?: number;
}

/** Brings a parsed document to the current version; refuses files from a newer Flamelens. */
export function upgradeDocument(doc: Json, c: JsonCheck, migrations: Readonly<Record<number, Migration>> = MIGRATIONS): Json {
  let version = c.num(doc.version, 'version', { int: true, min: 0 });
  if (version > WORKSPACE_VERSION)
    c.fail(
      'version',
      `the file was saved by a newer Flamelens (workspace version ${version}); this one reads versions up to ${WORKSPACE_VERSION}`,
    );
  while (version < WORKSPACE_VERSION) {
    const step = migrations[version];
    if (!step) c.fail('version', `workspace version ${version} is no longer supported`);
    doc = step(doc);
    const next = doc.version;
    if (next !== version + 1) c.fail('version', `internal: the migration from version ${version} gave version ${describe(next)}`);
    version = next;
  }
  return doc;
}

function readView(c: JsonCheck, v: unknown): WorkspaceView {
  // Fields a file lacks take the defaults, so a setting added later does not break older files.
  const o = v === undefined ? {} : c.obj(v, 'view');
  const pick = <T extends string>(key: keyof WorkspaceView, allowed: readonly T[]): T =>
    o[key] === undefined ? (DEFAULT_VIEW[key] as T) : c.oneOf(o[key], `view.${key}`, allowed);
  return {
    layout: pick('layout', ['rows', 'columns']),
    orientation: pick('orientation', ['flame', 'icicle']),
    sort: pick('sort', ['name', 'weight']),
    palette: pick('palette', ['default', 'colorblind']),
    focus: o.focus === undefined ? [] : c.strings(c.arr(o.focus, 'view.focus', MAX_PATH), 'view.focus'),
    query: o.query === undefined ? '' : c.str(o.query, 'view.query', MAX_TEXT),
    filterMode: pick('filterMode', ['highlight', 'only', 'hide']),
    diffView: pick('diffView', ['off', 'diff', 'removed', 'merged']),
    normalize: o.normalize === undefined ? SAVED_BEFORE_FIELD.normalize : c.oneOf(o.normalize, 'view.normalize', ['absolute', 'relative']),
    diffMeasure: pick('diffMeasure', ['total', 'self']),
    noisePercent:
      o.noisePercent === undefined ? DEFAULT_VIEW.noisePercent : c.num(o.noisePercent, 'view.noisePercent', { min: 0, max: 100 }),
    matchEntry: o.matchEntry === undefined ? SAVED_BEFORE_FIELD.matchEntry : c.bool(o.matchEntry, 'view.matchEntry'),
  };
}

function readAnchor(c: JsonCheck, v: unknown, path: string): Anchor {
  const o = c.obj(v, path);
  if (o.keyPath !== undefined) {
    const keyPath = c.strings(c.arr(o.keyPath, `${path}.keyPath`, MAX_PATH), `${path}.keyPath`);
    if (keyPath.length === 0) c.fail(`${path}.keyPath`, 'is empty (a note pins to a frame below the root)');
    return { keyPath };
  }
  if (o.region !== undefined) {
    const r = c.obj(o.region, `${path}.region`);
    const f = (k: string) => c.num(r[k], `${path}.region.${k}`, { min: 0, max: 1 });
    return { region: normalizeRegion({ x: f('x'), y: f('y'), w: f('w'), h: f('h') }) };
  }
  c.fail(path, 'expected a frame ({"keyPath": […]}) or an area ({"region": {x, y, w, h}})');
}

function readAnnotations(c: JsonCheck, v: unknown, runIds: Set<string>): AnnotationDoc {
  if (v === undefined) return { title: '', caption: '', items: [] };
  const o = c.obj(v, 'annotations');
  const ids = new Set<string>();
  const items = c.arr(o.items ?? [], 'annotations.items', MAX_ANNOTATIONS).map((x, i): Annotation => {
    const p = `annotations.items[${i}]`;
    const a = c.obj(x, p);
    const id = c.str(a.id, `${p}.id`, 200);
    if (id === '' || ids.has(id)) c.fail(`${p}.id`, id === '' ? 'is empty' : `"${id}" is used twice`);
    ids.add(id);
    const out: Annotation = {
      id,
      kind: c.oneOf(a.kind, `${p}.kind`, ['note', 'box'] as const),
      text: c.str(a.text, `${p}.text`, MAX_TEXT),
      anchor: readAnchor(c, a.anchor, `${p}.anchor`),
      createdAt: a.createdAt === undefined ? 0 : c.num(a.createdAt, `${p}.createdAt`),
    };
    const runId = c.opt(a, 'runId', p, (r, q) => c.str(r, q));
    if (runId !== undefined) {
      if (!runIds.has(runId)) c.fail(`${p}.runId`, `refers to run "${runId}", which the workspace does not hold`);
      out.runId = runId;
    }
    return out;
  });
  return {
    title: o.title === undefined ? '' : c.str(o.title, 'annotations.title', MAX_TEXT),
    caption: o.caption === undefined ? '' : c.str(o.caption, 'annotations.caption', MAX_TEXT),
    items,
  };
}

/** The timeline's sample density, worked out as an import works it out (it follows from the samples, so it is not saved). */
function withDensity(p: Profile): Profile {
  const density = fineDensity(p);
  if (density) p.density = density;
  return p;
}

/**
 * The workspace a document describes, every field checked; `profiles[i]`, where given, is run i's
 * profile read from beside the document (./workspace-file), else it is inside the document.
 */
export function readWorkspaceDocument(c: JsonCheck, doc: Json, profiles?: readonly unknown[]): Workspace {
  if (doc.format !== WORKSPACE_FORMAT) c.fail('format', `expected "${WORKSPACE_FORMAT}", found ${describe(doc.format)}`);
  const runIds = new Set<string>();
  // Runs saved before V8 samples were weighed by time come back weighed as a new import is.
  const decode = (raw: unknown, path: string) => withDensity(weighByDefault(profileFromJson(c, raw, path)));
  // Profiles read from beside the document come in file order: each run's, then its repeats'.
  let next = 0;
  const runs = c.arr(doc.runs, 'runs', MAX_WORKSPACE_RUNS).map((x, i): WorkspaceRun => {
    const p = `runs[${i}]`;
    const r = c.obj(x, p);
    const id = c.str(r.id, `${p}.id`, 200);
    if (id === '' || runIds.has(id)) c.fail(`${p}.id`, id === '' ? 'is empty' : `"${id}" is used twice`);
    runIds.add(id);
    const run: WorkspaceRun = {
      id,
      title: c.str(r.title, `${p}.title`, MAX_TEXT),
      fileName: c.str(r.fileName, `${p}.fileName`, MAX_TEXT),
      profile: decode(profiles ? profiles[next++] : r.profile, `${p}.profile`),
    };
    if (r.repeats !== undefined)
      run.repeats = readRepeats(c, r.repeats, `${p}.repeats`, (_, embedded, q) => decode(profiles ? profiles[next++] : embedded, q));
    if (r.path !== undefined) run.path = c.str(r.path, `${p}.path`, MAX_TEXT);
    if (r.thread !== undefined) {
      const thread = c.str(r.thread, `${p}.thread`, 200);
      const has = run.profile.meta.threads?.some((t) => threadKey(t) === thread);
      if (!hasThreadRoots(run.profile) || (thread !== ALL_THREADS && thread !== THREADS_TOGETHER && !has))
        c.fail(`${p}.thread`, `"${thread}" is not one of the threads the run's profile holds`);
      run.thread = thread;
    }
    if (r.measured !== undefined) run.measured = readMeasured(c, r.measured, `${p}.measured`);
    return run;
  });
  const baselineIndex = c.num(doc.baselineIndex, 'baselineIndex', { int: true, min: runs.length === 0 ? -1 : 0, max: runs.length - 1 });
  const read = c.arr(doc.ranges ?? [], 'ranges', MAX_ANNOTATIONS).map((x, i): WorkspaceRange => {
    const p = `ranges[${i}]`;
    const r = c.obj(x, p);
    const runId = c.str(r.runId, `${p}.runId`);
    if (!runIds.has(runId)) c.fail(`${p}.runId`, `refers to run "${runId}", which the workspace does not hold`);
    const start = c.num(r.start, `${p}.start`);
    const end = c.num(r.end, `${p}.end`);
    if (!(end > start)) c.fail(p, `ends (${end}) before it starts (${start})`);
    if (r.cells === undefined) return { runId, start, end };
    const cells = c.obj(r.cells, `${p}.cells`);
    const cell = (v: unknown, q: string) => {
      const o = c.obj(v, q);
      return { column: c.num(o.column, `${q}.column`, { int: true, min: 0 }), row: c.num(o.row, `${q}.row`, { int: true, min: 0 }) };
    };
    return {
      runId,
      start,
      end,
      cells: {
        a: cell(cells.a, `${p}.cells.a`),
        b: cell(cells.b, `${p}.cells.b`),
        rows: c.num(cells.rows, `${p}.cells.rows`, { int: true, min: 1, max: 10_000 }),
        includeIdle: cells.includeIdle === true,
      },
    };
  });
  // A range is a stretch of the run's sample times: on a run without any (folded stacks, trace
  // spans) it cannot apply, and drawing it would fail. Such a file is still opened, without it.
  const dropped: string[] = [];
  const ranges = read.filter((r, i) => {
    const run = runs.find((x) => x.id === r.runId)!;
    if (hasTimestamps(run.profile)) return true;
    dropped.push(`${c.file}: ranges[${i}] (a time range on run "${run.title}") was left out: that run has no sample timestamps.`);
    return false;
  });
  const ws: Workspace = {
    savedAt: c.str(doc.savedAt, 'savedAt', 100),
    runs,
    baselineIndex,
    view: readView(c, doc.view),
    annotations: readAnnotations(c, doc.annotations, runIds),
    ranges,
  };
  if (dropped.length > 0) ws.dropped = dropped;
  return ws;
}
