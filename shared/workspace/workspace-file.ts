/**
 * The `.flamelens` file as a stream of bytes, written and read a piece at a time, so that a
 * workspace of any size is saved and opened without its file, or one JSON text of all of it,
 * ever being held whole (one JS string cannot exceed ~512 MiB; four 100 MB profiles as base64
 * JSON did not fit).
 *
 * Version 2, on disk: one gzip member (CompressionStream 'gzip') holding
 *   line 1: the workspace document (./workspace `workspaceDocument`), its runs without profiles;
 *   then, for each run in order (and after it, each of its repeats': ./workspace-repeats), the
 *   profile as a block (./profile-block): a line `{"sections":[n0, n1, …],"profile":{…}}`, then
 *   those sections' bytes.
 * JSON.stringify never writes a raw newline, so each line is one JSON text. A file whose first
 * line is the whole document (version 1, and hand-edited files, profiles embedded as base64) is
 * read as before.
 */
import { ImportError } from '../import/errors';
import { inflateWithin } from '../import/io/inflate-budget';
import type { Profile } from '../model/types';
import { type Json, JsonCheck, WorkspaceError } from './json-check';
import { ByteReader, jsonLine, parseLine, profileBlock, readProfileBlock } from './profile-block';
import { blockCount, profileBlocks, profilesInOrder } from './workspace-repeats';
import {
  type DecodeOptions,
  MAX_WORKSPACE_BYTES,
  type Workspace,
  type WorkspaceHead,
  WORKSPACE_FORMAT,
  isWorkspace,
  readWorkspaceDocument,
  upgradeDocument,
  workspaceDocument,
} from './workspace';

/** Longest run of bytes handed on at once: the reader and the compressor see steady pieces. */
const PIECE = 1 << 20;
/** At most this many bytes decompressed from a version-2 file (its profiles' columns are not held as text). */
export const MAX_STREAMED_BYTES = 16 * 1024 ** 3;
const NEWLINE = 10;

type Piece = Uint8Array<ArrayBuffer>;

async function* pieces(head: WorkspaceHead, profileOf: (i: number) => Promise<Profile>): AsyncGenerator<Piece> {
  yield jsonLine(workspaceDocument(head));
  for (let i = 0; i < blockCount(head.runs); i++) {
    const { head: blockHead, columns } = profileBlock(await profileOf(i));
    yield blockHead;
    for (const c of columns) for (let at = 0; at < c.length; at += PIECE) yield c.subarray(at, at + PIECE) as Piece;
  }
}

/**
 * The workspace file's bytes, gzipped, as a stream: `profileOf(i)` is asked for the i-th profile
 * (each run's, then its repeats': ./workspace-repeats `profilesInOrder`) only when the file
 * reaches it, so at most one profile need be at hand at a time.
 */
export function workspaceStream(head: WorkspaceHead, profileOf: (i: number) => Promise<Profile>): ReadableStream<Uint8Array> {
  const it = pieces(head, profileOf);
  const raw = new ReadableStream<Piece>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return(undefined);
    },
  });
  return raw.pipeThrough(new CompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Piece>);
}

/** The whole file in memory (tests, small workspaces). */
export async function encodeWorkspace(ws: Workspace): Promise<Uint8Array> {
  const all = profilesInOrder(ws.runs);
  const reader = workspaceStream(ws, async (i) => all[i]!).getReader();
  const parts: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return concat(parts);
}

/**
 * Reads a `.flamelens` file from a stream of its bytes (gzipped or, for hand-edited files, plain
 * JSON). Every failure is a `WorkspaceError` whose message names the file and what is wrong.
 */
export async function readWorkspaceStream(
  stream: ReadableStream<Uint8Array>,
  fileName: string,
  opts: DecodeOptions = {},
): Promise<Workspace> {
  const c: JsonCheck = new JsonCheck(fileName);
  const { head, rest } = await peek(stream);
  const gzipped = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  // inflated within the importers' budget: a gzip bomb is refused as it unpacks, not at the size limit
  const bytes = gzipped ? inflateWithin(rest, fileName) : rest;
  const r = new ByteReader(bytes.getReader(), opts.maxBytes ?? MAX_WORKSPACE_BYTES, (why, e) => {
    if (why === 'too-large') c.fail('', `is larger than ${r.limit / (1024 * 1024)} MiB${gzipped ? ' when decompressed' : ''}`);
    if (e instanceof ImportError) c.fail('', e.detail);
    if (gzipped) c.fail('', 'is damaged: its gzip compression does not decode (the file may be truncated)');
    throw e;
  });
  try {
    const { bytes: top, ended } = await r.line();
    if (!isWorkspace(new TextDecoder().decode(top.subarray(0, 256))))
      c.fail('', `is not a Flamelens workspace (it does not start with {"format":"${WORKSPACE_FORMAT}"…)`);
    const doc = ended ? undefined : headLine(top);
    if (!doc) {
      // One JSON text: version 1, or a hand-edited file (perhaps over many lines).
      const whole = ended ? top : concat([top, new Uint8Array([NEWLINE]), await r.bytes(Infinity)]);
      return readWorkspaceDocument(c, upgradeDocument(c.obj(parseLine(c, whole, ''), ''), c, opts.migrations));
    }
    const parsed = upgradeDocument(doc, c, opts.migrations);
    if (opts.maxBytes === undefined) r.limit = MAX_STREAMED_BYTES;
    const profiles: unknown[] = [];
    const runs = c.arr(parsed.runs, 'runs');
    for (let i = 0; i < runs.length; i++)
      for (let k = profileBlocks(c, runs[i], `runs[${i}]`); k > 0; k--) profiles.push(await readProfileBlock(c, r, i));
    if (!(await r.atEnd())) c.fail('', 'has data after its last run');
    return readWorkspaceDocument(c, parsed, profiles);
  } catch (e) {
    if (e instanceof WorkspaceError) throw e;
    // Never let a hostile file surface as an unexplained crash.
    if (e instanceof RangeError) c.fail('', `is too large or too deeply nested to read (${e.message})`);
    c.fail('', `could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The first line as the head of a streamed file: a document whose runs hold no profiles; undefined when it is not one. */
function headLine(bytes: Uint8Array): Json | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const runs = (doc as Json).runs;
  return Array.isArray(runs) && runs.some((x) => typeof x === 'object' && x !== null && 'profile' in x) ? undefined : (doc as Json);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of parts) {
    out.set(x, o);
    o += x.length;
  }
  return out;
}

/** The stream's first bytes (at least two where it has them), and a stream of all its bytes. */
async function peek(stream: ReadableStream<Uint8Array>): Promise<{ head: Uint8Array; rest: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const first: Uint8Array[] = [];
  let ended = false;
  while (first.reduce((n, x) => n + x.length, 0) < 2) {
    const next = await reader.read();
    if (next.done) {
      ended = true;
      break;
    }
    first.push(next.value);
  }
  const head = concat(first);
  let sent = false;
  const rest = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        if (head.length > 0) return controller.enqueue(head);
      }
      const next = ended ? undefined : await reader.read();
      if (!next || next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, rest };
}

/** Reads a `.flamelens` file held in memory. */
export function decodeWorkspace(bytes: Uint8Array, fileName: string, opts: DecodeOptions = {}): Promise<Workspace> {
  const once = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return readWorkspaceStream(once, fileName, opts);
}
