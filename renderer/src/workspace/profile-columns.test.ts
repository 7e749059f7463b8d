import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProfile } from '../../../shared/import/import-profile';
import type { Profile } from '../../../shared/model/types';
import { sampleWeights } from '../../../shared/model/sample-weights';
import { fileSource, fixturePath } from '../../../test/support/files';
import {
  COLUMN_BYTES,
  LATER_SLICE,
  columnFile,
  isSplitRecord,
  joinColumns,
  pruneColumns,
  recordForLater,
  splitProfile,
  writeColumns,
  writeColumnsLater,
} from './profile-columns';
import { timeColumn } from '../../../shared/model/sample-times';

/** The Origin Private File System as a worker sees it, in memory: files by name. */
const files = new Map<string, Uint8Array>();
/** The size of each write to a writable stream, in order. */
const streamed: number[] = [];
class FakeFileHandle {
  constructor(readonly name: string) {}
  /** As a browser's: what is written goes to a file of its own, which takes this one's place on `close`. */
  async createWritable() {
    const name = this.name;
    const parts: Uint8Array[] = [];
    return {
      write: async (b: Uint8Array) => {
        streamed.push(b.byteLength);
        parts.push(b.slice());
      },
      close: async () => {
        const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
        files.set(name, out);
      },
      abort: async () => void (parts.length = 0),
    };
  }
  async createSyncAccessHandle() {
    const name = this.name;
    return {
      truncate: (n: number) => files.set(name, new Uint8Array(n)),
      write: (b: Uint8Array, { at }: { at: number }) => {
        const chunk = b.subarray(0, Math.min(b.length, 1 << 20)); // a short write, as a real handle may do
        files.get(name)!.set(chunk, at);
        return chunk.length;
      },
      flush: () => undefined,
      close: () => undefined,
    };
  }
  async getFile() {
    const bytes = files.get(this.name);
    if (!bytes) throw new DOMException('not found', 'NotFoundError');
    return { arrayBuffer: async () => bytes.slice().buffer };
  }
}
const dir = {
  getDirectoryHandle: async () => dir,
  getFileHandle: async (name: string, o?: { create?: boolean }) => {
    if (!files.has(name) && !o?.create) throw new DOMException('not found', 'NotFoundError');
    if (!files.has(name)) files.set(name, new Uint8Array(0));
    return new FakeFileHandle(name);
  },
  removeEntry: async (name: string) => void files.delete(name),
  keys: async function* () {
    yield* [...files.keys()];
  },
};

let big: Profile;
beforeAll(async () => {
  (globalThis as { FileSystemFileHandle?: unknown }).FileSystemFileHandle = FakeFileHandle;
  Object.defineProperty(navigator, 'storage', { value: { getDirectory: async () => dir }, configurable: true });
  big = await importProfile(fileSource(fixturePath('samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile')));
  // a long capture's columns: the samples repeated past the size that goes to files
  const s = big.samples!;
  const n = Math.ceil((2 * COLUMN_BYTES) / 8 / s.length) * s.length;
  const rep = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T) => {
    const out = make(n);
    for (let i = 0; i < n; i += s.length) out.set(a, i);
    return out;
  };
  big = {
    ...big,
    samples: {
      length: n,
      node: rep(s.node, (k) => new Int32Array(k)),
      time: rep(timeColumn(s), (k) => new Float64Array(k)),
      weight: rep(sampleWeights(s, big.unit), (k) => new Float64Array(k)),
    },
  };
});

afterAll(() => {
  delete (globalThis as { FileSystemFileHandle?: unknown }).FileSystemFileHandle;
  delete (navigator as { storage?: unknown }).storage;
});

describe('splitProfile', () => {
  it('takes out the arrays of 1 MiB and more, leaving the rest of the profile as it was', () => {
    const { rest, columns } = splitProfile(big);
    expect(columns.map((c) => `${c.group}.${c.field}`).sort()).toEqual(['samples.node', 'samples.time', 'samples.weight']);
    expect(rest.samples!.time).toBeNull();
    expect(rest.samples!.length).toBe(big.samples!.length);
    expect(rest.tree).toBe(big.tree);
    expect(rest.frames).toBe(big.frames);
    // the profile given is not changed
    expect(big.samples!.time).toBeInstanceOf(Float64Array);
  });

  it('leaves a small profile whole', () => {
    const small = {
      ...big,
      samples: {
        ...big.samples!,
        node: big.samples!.node.slice(0, 10),
        time: timeColumn(big.samples!).slice(0, 10),
        weight: big.samples!.weight!.slice(0, 10),
        length: 10,
      },
    };
    expect(splitProfile(small).columns).toEqual([]);
  });
});

describe('writeColumns and joinColumns', () => {
  it('write the big arrays to files and give the same profile back', async () => {
    files.clear();
    const record = await writeColumns('page:run 1', big);
    expect(isSplitRecord(record)).toBe(true);
    expect([...files.keys()].sort()).toEqual(
      ['node', 'time', 'weight'].map((field) => columnFile('page:run 1', { group: 'samples', field })).sort(),
    );
    // what IndexedDB gets holds none of them
    expect(record!.profile.samples!.node).toBeNull();
    const back = await joinColumns('page:run 1', record!);
    expect(back).toEqual(big);
    expect(back.samples!.time).toBeInstanceOf(Float64Array);
  });

  it('refuse a column whose file does not hold what the record says', async () => {
    files.clear();
    const record = (await writeColumns('k', big))!;
    files.set(columnFile('k', { group: 'samples', field: 'time' }), new Uint8Array(16));
    await expect(joinColumns('k', record)).rejects.toThrow(/samples\.time holds 2 values/);
  });

  it('prune the files of every key not kept', async () => {
    files.clear();
    await writeColumns('a:1', big);
    await writeColumns('a:2', big);
    await pruneColumns(new Set(['a:2']));
    expect([...files.keys()].every((f) => f.startsWith(`${encodeURIComponent('a:2')}~`))).toBe(true);
    expect(files.size).toBe(3);
  });
});

describe('recordForLater and writeColumnsLater', () => {
  it('name the big arrays in the record and write them a slice at a time, giving the same profile back', async () => {
    files.clear();
    streamed.length = 0;
    // one column past a slice and a half, so that it is written in two
    const n = (LATER_SLICE / 4) * 1.5 + 3;
    const node = new Int32Array(n).map((_, i) => (i * 2654435761) | 0);
    const profile = {
      ...big,
      samples: { ...big.samples!, length: n, node, time: new Float64Array(n).map((_, i) => i * 1.5), weight: undefined },
    };
    const record = recordForLater(profile)!;
    expect(record.columns.map((c) => `${c.group}.${c.field} ${c.type} ${c.length}`)).toEqual([
      `samples.node Int32Array ${n}`,
      `samples.time Float64Array ${n}`,
    ]);
    expect(record.profile.samples!.node).toBeNull();
    // nothing is written until asked
    expect(files.size).toBe(0);
    await writeColumnsLater('page:run 2', profile, record.columns);
    expect(Math.max(...streamed)).toBe(LATER_SLICE);
    expect(streamed.reduce((a, b) => a + b, 0)).toBe(n * 4 + n * 8);
    const back = await joinColumns('page:run 2', record);
    const same = (a: ArrayBufferView, b: ArrayBufferView) =>
      Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    expect(back.samples!.node).toBeInstanceOf(Int32Array);
    expect(same(back.samples!.node, node)).toBe(true);
    expect(back.samples!.time).toBeInstanceOf(Float64Array);
    expect(same(back.samples!.time!, profile.samples.time)).toBe(true);
    expect({ ...back.samples, node: null, time: null }).toEqual({ ...profile.samples, node: null, time: null });
    expect(back.tree).toBe(profile.tree);
  });

  it('refuse a profile whose array is not the one the record names, leaving no file for it', async () => {
    files.clear();
    const record = recordForLater(big)!;
    const other = { ...big, samples: { ...big.samples!, time: big.samples!.time!.subarray(1) } };
    await expect(writeColumnsLater('k', other, record.columns)).rejects.toThrow(/samples\.time is not the Float64Array of \d+ values/);
    expect(files.has(columnFile('k', { group: 'samples', field: 'time' }))).toBe(false);
  });

  it('leave a small profile to be stored whole', () => {
    const small = {
      ...big,
      samples: { ...big.samples!, node: big.samples!.node.slice(0, 10), time: undefined, weight: undefined, length: 10 },
    };
    expect(recordForLater(small)).toBeUndefined();
  });
});
