/**
 * One profile as a block of bytes: a line `{"sections":[n0, n1, …],"profile":{…}}` — the
 * profile in ./profile-codec's form with each numeric column written `{"section": k}` — then
 * those sections' bytes (little-endian, n0 then n1 …). A `.flamelens` file (./workspace-file) is
 * a line of its document and one such block per profile; a profile parsed by the local server
 * comes to the window as one (./parsed-profile).
 */
import { littleEndianBytes } from './base64';
import { type Json, JsonCheck } from './json-check';
import { type PutColumn, profileToJson } from './profile-codec';
import type { Profile } from '../model/types';

const NEWLINE = 10;
const encoder = new TextEncoder();

/** A JSON text and a newline, as bytes. */
export const jsonLine = (v: unknown): Uint8Array<ArrayBuffer> => encoder.encode(`${JSON.stringify(v)}\n`) as Uint8Array<ArrayBuffer>;

/**
 * `profile`'s block: its line and its columns' bytes (views of the profile's own arrays on a
 * little-endian machine: nothing is copied).
 */
export function profileBlock(profile: Profile): { head: Uint8Array<ArrayBuffer>; columns: Uint8Array[] } {
  const columns: Uint8Array[] = [];
  const put: PutColumn = (a) => {
    columns.push(littleEndianBytes(a));
    return { section: columns.length - 1 };
  };
  const json = profileToJson(profile, put);
  return { head: jsonLine({ sections: columns.map((c) => c.length), profile: json }), columns };
}

/** Reads bytes from a stream by lines and by counts, refusing to go past a total. */
export class ByteReader {
  private buffered: Uint8Array[] = [];
  private size = 0;
  private done = false;
  private total = 0;
  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    public limit: number,
    private readonly fail: (why: 'too-large' | 'damaged', e?: unknown) => never,
  ) {}

  private async more(): Promise<boolean> {
    if (this.done) return false;
    let next: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
    try {
      next = await this.reader.read();
    } catch (e) {
      return this.fail('damaged', e);
    }
    if (next.done) {
      this.done = true;
      return false;
    }
    this.total += next.value.length;
    if (this.total > this.limit) {
      await this.reader.cancel().catch(() => undefined);
      this.fail('too-large');
    }
    this.buffered.push(next.value);
    this.size += next.value.length;
    return true;
  }

  /** Moves buffered bytes into `out` from `at` on, as many as fit; returns where they end. */
  private drainInto(out: Uint8Array, at: number): number {
    let o = at;
    while (o < out.length && this.buffered.length > 0) {
      const c = this.buffered[0]!;
      const k = Math.min(c.length, out.length - o);
      out.set(c.subarray(0, k), o);
      o += k;
      this.size -= k;
      if (k === c.length) this.buffered.shift();
      else this.buffered[0] = c.subarray(k);
    }
    return o;
  }

  /** Exactly `n` buffered bytes (there must be that many) in one fresh buffer. */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    this.drainInto(out, 0);
    return out;
  }

  /** `n` bytes; fewer only at the end of the stream. */
  async bytes(n: number): Promise<Uint8Array> {
    if (!Number.isFinite(n)) {
      while (await this.more());
      return this.take(this.size);
    }
    // More than the reader may still read is refused before any memory is taken for it.
    if (n - this.size > this.limit - this.total) {
      await this.reader.cancel().catch(() => undefined);
      this.fail('too-large');
    }
    // Each piece is copied in as it comes and let go: the bytes are held once, not twice (an
    // 80 MB column gathered in pieces, then joined, took 160 MB). Memory not yet written to is
    // only reserved, so a stream that ends sooner costs what it held.
    const out = new Uint8Array(n);
    let o = this.drainInto(out, 0);
    while (o < n && (await this.more())) o = this.drainInto(out, o);
    return o === n ? out : out.slice(0, o);
  }

  /** Bytes up to the next newline (dropped), or to the end; `ended` when there was no newline. */
  async line(): Promise<{ bytes: Uint8Array; ended: boolean }> {
    let seen = 0;
    let chunk = 0;
    for (;;) {
      for (; chunk < this.buffered.length; chunk++) {
        const at = this.buffered[chunk]!.indexOf(NEWLINE);
        if (at >= 0) {
          const bytes = this.take(seen + at);
          this.take(1);
          return { bytes, ended: false };
        }
        seen += this.buffered[chunk]!.length;
      }
      if (!(await this.more())) return { bytes: this.take(this.size), ended: true };
    }
  }

  async atEnd(): Promise<boolean> {
    return this.size === 0 && !(await this.more());
  }
}

/** The profile's `{"section": k}` columns replaced by those sections' bytes. */
function withSections(c: JsonCheck, v: unknown, sections: Uint8Array[], path: string): unknown {
  if (Array.isArray(v)) return v.map((x, i) => withSections(c, x, sections, `${path}[${i}]`));
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Json;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'section') {
    const k = c.num(o.section, `${path}.section`, { int: true, min: 0, max: sections.length - 1 });
    return sections[k];
  }
  const out: Json = {};
  for (const key of keys) Object.defineProperty(out, key, { value: withSections(c, o[key], sections, `${path}.${key}`), enumerable: true });
  return out;
}

export function parseLine(c: JsonCheck, bytes: Uint8Array, where: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    c.fail(where, 'is not a Flamelens workspace (not UTF-8 text once decompressed)');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    c.fail(where, `is damaged: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Run i's profile block: its line, then its sections' bytes. */
export async function readProfileBlock(c: JsonCheck, r: ByteReader, i: number): Promise<unknown> {
  const path = `runs[${i}].profile`;
  const { bytes, ended } = await r.line();
  if (ended && bytes.length === 0) c.fail('runs', `the file ends before run ${i + 1}'s profile (it may be truncated)`);
  return readBlockBody(c, r, c.obj(parseLine(c, bytes, path), path), path);
}

/** A profile block whose line is read (`block`): its sections' bytes, then the profile. */
export async function readBlockBody(c: JsonCheck, r: ByteReader, block: Json, path: string): Promise<unknown> {
  const sizes = c.arr(block.sections, `${path} sections`, 256).map((n, k) => c.num(n, `${path} sections[${k}]`, { int: true, min: 0 }));
  const sections: Uint8Array[] = [];
  for (const n of sizes) {
    const got = await r.bytes(n);
    if (got.length < n) c.fail(path, `the file ends inside the profile's data (it may be truncated)`);
    sections.push(got);
  }
  return withSections(c, block.profile, sections, path);
}
