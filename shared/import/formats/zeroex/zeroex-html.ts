/**
 * The trees inside a 0x `flamegraph.html`. 0x (lib/render.js) ends the page's one script with
 *
 *     visualizer({"merged":{"name":"all stacks","value":859,"top":0,"children":[…]},"unmerged":{…}}, {"title":…})
 *
 * after ~500 KB of bundled viewer code. The bytes are scanned for `visualizer(` followed by `{`,
 * and from there a small event-based JSON reader walks the value chunk by chunk, so neither the
 * page nor the tree text is ever held as one string; only the tree itself is kept, as light
 * records. The unmerged tree is the one used: the merged one leaves out inlinable frames and so
 * its counts do not add up (`value` ≠ `top` + children's values where a frame was dropped).
 */
import { ImportError } from '../../errors';

/** One node of a 0x tree. */
export interface TreeRecord {
  name: string;
  /** the label without tier marker (unmerged tree only) */
  fn?: string;
  /** 0x's tier code: 0 none, 1 unoptimized, 2 optimized, 3/4 the same but inlinable */
  S: number;
  /** samples with this node as the leaf */
  top: number;
  /** samples through this node */
  value: number;
  children: TreeRecord[];
}

export interface ZeroExTrees {
  merged?: TreeRecord;
  unmerged?: TreeRecord;
}

/** What the JSON reader reports, in document order. */
interface JsonSink {
  startObject(): void;
  startArray(): void;
  end(): void;
  key(k: string): void;
  scalar(v: string | number | boolean | null): void;
}

const enum Tok {
  None,
  String,
  Literal,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * An incremental reader of one JSON value: fed byte ranges, it reports structure to a sink and
 * says where the value ended. Only strings and literals are buffered, never a container.
 */
class JsonEvents {
  private depth = 0;
  /** per open container: true for an object */
  private readonly isObject: boolean[] = [];
  private expectKey = false;
  private tok = Tok.None;
  private escape = false;
  private hasEscape = false;
  private parts: Uint8Array[] = [];
  private readonly decoder = new TextDecoder('utf-8');
  done = false;

  constructor(
    private readonly sink: JsonSink,
    private readonly fail: (offset: number, message: string) => never,
  ) {}

  private text(): string {
    let s = '';
    for (const p of this.parts) s += this.decoder.decode(p, { stream: true });
    s += this.decoder.decode();
    this.parts = [];
    return s;
  }

  private emitString(at: number): void {
    const raw = this.text();
    let value = raw;
    if (this.hasEscape) {
      try {
        value = JSON.parse(`"${raw}"`) as string;
      } catch {
        // `"na\xme"`: not a JSON escape
        this.fail(at, `invalid string ${JSON.stringify(raw.slice(0, 40))} in the embedded trees`);
      }
    }
    if (this.expectKey) {
      this.sink.key(value);
      this.expectKey = false;
    } else this.sink.scalar(value);
  }

  private emitLiteral(at: number): void {
    const t = this.text();
    let v: number | boolean | null;
    if (t === 'true') v = true;
    else if (t === 'false') v = false;
    else if (t === 'null') v = null;
    else {
      v = Number(t);
      if (t === '' || !Number.isFinite(v)) this.fail(at, `invalid JSON value ${JSON.stringify(t.slice(0, 40))} in the embedded trees`);
    }
    this.sink.scalar(v);
  }

  private close(): void {
    this.depth--;
    this.isObject.pop();
    this.expectKey = false;
    this.sink.end();
    if (this.depth === 0) this.done = true;
  }

  /** Reads `bytes[from…]` (absolute offset `base` for messages); returns the index after the value, or -1. */
  feed(bytes: Uint8Array, from: number, base: number): number {
    let i = from;
    let start = from;
    const n = bytes.length;
    while (i < n) {
      const b = bytes[i]!;
      if (this.tok === Tok.String) {
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) {
          this.escape = true;
          this.hasEscape = true;
        } else if (b === QUOTE) {
          this.parts.push(bytes.subarray(start, i));
          this.tok = Tok.None;
          this.emitString(base + i);
        }
        i++;
        continue;
      }
      if (this.tok === Tok.Literal) {
        if ((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b === 0x2b || b === 0x2d || b === 0x2e || b === 0x45) {
          i++;
          continue;
        }
        this.parts.push(bytes.subarray(start, i));
        this.tok = Tok.None;
        this.emitLiteral(base + i);
        if (this.depth === 0) {
          this.done = true;
          return i;
        }
      }
      switch (b) {
        case 0x20:
        case 0x0a:
        case 0x0d:
        case 0x09:
        case 0x3a: // ':' — keys are known by position
          break;
        case 0x2c: // ','
          this.expectKey = this.isObject[this.depth - 1] === true;
          break;
        case 0x7b: // '{'
          this.depth++;
          this.isObject.push(true);
          this.expectKey = true;
          this.sink.startObject();
          break;
        case 0x5b: // '['
          this.depth++;
          this.isObject.push(false);
          this.expectKey = false;
          this.sink.startArray();
          break;
        case 0x7d: // '}'
        case 0x5d: // ']'
          if (this.depth === 0 || this.isObject[this.depth - 1] !== (b === 0x7d))
            this.fail(base + i, `unbalanced ${String.fromCharCode(b)} in the embedded trees`);
          this.close();
          if (this.done) return i + 1;
          break;
        case QUOTE:
          this.tok = Tok.String;
          this.escape = false;
          this.hasEscape = false;
          start = i + 1;
          break;
        default:
          this.tok = Tok.Literal;
          start = i;
      }
      i++;
    }
    if (this.tok !== Tok.None) this.parts.push(bytes.slice(start, n));
    return -1;
  }
}

type Context =
  | { kind: 'wrapper'; key: string }
  | { kind: 'node'; rec: TreeRecord; key: string }
  | { kind: 'children'; rec: TreeRecord }
  | { kind: 'skip' };

function newRecord(): TreeRecord {
  return { name: '', S: 0, top: 0, value: 0, children: [] };
}

/** Builds `TreeRecord`s from the events of `{"merged":{…},"unmerged":{…}}`. */
class TreeSink implements JsonSink {
  readonly trees: ZeroExTrees = {};
  private readonly stack: Context[] = [];

  private openNode(): TreeRecord | undefined {
    const top = this.stack[this.stack.length - 1];
    if (!top) return undefined;
    if (top.kind === 'children') {
      const rec = newRecord();
      top.rec.children.push(rec);
      return rec;
    }
    if (top.kind === 'wrapper' && (top.key === 'merged' || top.key === 'unmerged')) {
      const rec = newRecord();
      // Only one tree is used; keep the merged one only until the unmerged one shows up.
      if (top.key === 'unmerged') delete this.trees.merged;
      this.trees[top.key] = rec;
      return rec;
    }
    return undefined;
  }

  startObject(): void {
    if (this.stack.length === 0) {
      this.stack.push({ kind: 'wrapper', key: '' });
      return;
    }
    const rec = this.openNode();
    this.stack.push(rec ? { kind: 'node', rec, key: '' } : { kind: 'skip' });
  }

  startArray(): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'node' && top.key === 'children') this.stack.push({ kind: 'children', rec: top.rec });
    else this.stack.push({ kind: 'skip' });
  }

  end(): void {
    this.stack.pop();
  }

  key(k: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'wrapper' || top?.kind === 'node') top.key = k;
  }

  scalar(v: string | number | boolean | null): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind !== 'node') return;
    const r = top.rec;
    switch (top.key) {
      case 'name':
        if (typeof v === 'string') r.name = v;
        break;
      case 'fn':
        if (typeof v === 'string') r.fn = v;
        break;
      case 'S':
        if (typeof v === 'number') r.S = v;
        break;
      case 'top':
        if (typeof v === 'number') r.top = v;
        break;
      case 'value':
        if (typeof v === 'number') r.value = v;
        break;
    }
  }
}

const MARKER = new TextEncoder().encode('visualizer(');

/** Finds and reads the trees 0x embedded in a flamegraph.html. */
export async function readHtmlTrees(chunks: AsyncIterable<Uint8Array>, file: string): Promise<ZeroExTrees> {
  const fail = (offset: number, message: string): never => {
    throw new ImportError({ file, offset, message });
  };
  const sink = new TreeSink();
  let reader: JsonEvents | undefined;
  let matched = 0; // bytes of MARKER matched so far
  let afterMarker = false; // MARKER seen; waiting for its first argument
  let offset = 0;
  for await (const chunk of chunks) {
    let i = 0;
    while (i < chunk.length && !reader?.done) {
      if (reader) {
        const end = reader.feed(chunk, i, offset);
        i = end < 0 ? chunk.length : end;
        continue;
      }
      const b = chunk[i]!;
      if (afterMarker) {
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
          i++;
          continue;
        }
        afterMarker = false;
        // `visualizer(` also occurs in viewer code; the data call is the one passed an object.
        if (b === 0x7b) {
          reader = new JsonEvents(sink, fail);
          continue;
        }
      }
      // 'v' occurs only at the start of MARKER, so a failed match restarts at this byte.
      if (b === MARKER[matched]) matched++;
      else matched = b === MARKER[0] ? 1 : 0;
      if (matched === MARKER.length) {
        matched = 0;
        afterMarker = true;
      }
      i++;
    }
    offset += chunk.length;
    if (reader?.done) break;
  }
  if (!reader) fail(offset, 'no 0x trees found in this HTML page (expected the `visualizer({"merged":…,"unmerged":…})` call 0x writes)');
  if (!reader!.done) fail(offset, 'the 0x trees in this HTML page are cut off (the file is truncated)');
  if (!sink.trees.merged && !sink.trees.unmerged) fail(offset, 'the 0x `visualizer(…)` call holds no "merged" or "unmerged" tree');
  return sink.trees;
}
