/**
 * Inputs that inflate to more than any real profile — a small gzip file holding one endless JSON
 * string, one endless line, or a gigabyte of pprof — end quickly with an error naming the file and
 * the limit, instead of taking the machine's memory first. The sources here hand out the same
 * chunk over and over, so the test itself holds only what the importer keeps.
 */
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_PPROF_BYTES } from './formats/pprof/pprof';
import { gzipBomb } from '../../test/fuzz/gen-compressed';
import { importProfile } from './import-profile';
import { FREE_INFLATED_BYTES, MAX_INFLATE_RATIO } from './io/inflate-budget';
import { MAX_JSON_VALUE_BYTES } from './io/json-stream';
import { type ByteSource, bytesSource } from './io/source';

const MiB = 1024 * 1024;

/** `head`, then `fill` repeated to `bytes` in chunks of `size` (the same chunk each time), then `tail`. */
function endless(name: string, head: string, fill: number, bytes: number, tail = '', size = MiB): ByteSource {
  const chunk = new Uint8Array(size).fill(fill);
  const enc = new TextEncoder();
  return {
    name,
    stream() {
      let sent = -1;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent < 0) c.enqueue(enc.encode(head));
          else if (sent < bytes) c.enqueue(chunk);
          else {
            if (tail) c.enqueue(enc.encode(tail));
            c.close();
          }
          sent = sent < 0 ? 0 : sent + size;
        },
      });
    },
  };
}

const zlib = {
  deflateRaw: (b: Uint8Array) => new Uint8Array(deflateRawSync(b, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })),
  crc32: (b: Uint8Array) => crc32(b),
  gzip: (b: Uint8Array) => new Uint8Array(gzipSync(b)),
};
const enc = new TextEncoder();
const folded = {
  name: 'stacks.folded.gz',
  head: enc.encode('main;work 1\n'),
  unit: enc.encode('main;work;loop 1\n'),
  tail: new Uint8Array(),
};

async function failure(src: ByteSource): Promise<{ message: string; ms: number }> {
  const t = performance.now();
  const e = await importProfile(src).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'the import should have failed').toBeInstanceOf(Error);
  return { message: (e as Error).message, ms: performance.now() - t };
}

describe('size limits', () => {
  it('a JSON value longer than any real one is refused as it passes the limit', async () => {
    const { message, ms } = await failure(
      endless(
        'trace.json',
        '{"traceEvents":[{"ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"name":"',
        0x61,
        MAX_JSON_VALUE_BYTES + 64 * MiB,
        '"}]}',
      ),
    );
    expect(message).toBe(
      `trace.json (byte 16): one JSON array element that starts here is longer than ${MAX_JSON_VALUE_BYTES / MiB} MiB; no profile holds one that long, so the file is not read further`,
    );
    expect(ms).toBeLessThan(30_000);
  });

  it('a pprof profile larger than any profiler writes is refused before it is decoded', async () => {
    // string_table entries (field 6), one byte each: a valid start, then more of the same
    const { message } = await failure(endless('cpu.pb', '\u0032\u0001a', 0x32, MAX_PPROF_BYTES + 4 * MiB));
    expect(message).toMatch(/^cpu\.pb \(byte \d+\): the pprof data is larger than 256 MiB \(unpacked\)/);
  });

  it('one endless line is refused once it passes the longest line, in time linear in its length', async () => {
    // A first line that makes the file folded stacks, then a stack that never ends.
    // 16 KiB chunks, as gzip hands them out
    const { message, ms } = await failure(endless('x.folded', 'main;work 1\nmain;', 0x62, 512 * MiB, '', 16 * 1024));
    expect(message).toBe(`x.folded:2: line is longer than ${16 * MiB} characters`);
    // Looking for the line's end again from its start on every chunk took minutes for 1 GB.
    expect(ms).toBeLessThan(20_000);
  });

  it.each([
    ['as one chunk', 1 << 30],
    ['in 4 KiB chunks', 4096],
  ])('a gzip file that inflates to 1 GB is refused as its content passes gzip’s budget (%s)', async (_how, chunk) => {
    const bomb = gzipBomb(zlib, { shape: 0, mib: 1024, noise: 0, seed: 1, trailer: 'true', closed: true }, [folded]);
    expect(bomb.inflates).toBeGreaterThan(1e9);
    const t = performance.now();
    const e = await importProfile(bytesSource('bomb.folded.gz', bomb.bytes, chunk)).catch(
      (err: unknown) => err as Error & { offset?: number },
    );
    const ms = performance.now() - t;
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(
      new RegExp(
        `^bomb\\.folded\\.gz \\(byte \\d+\\): the gzip data inflates to more than ${MAX_INFLATE_RATIO} times its size \\(16 MiB from \\d+ KiB\\); no profile compresses that well, so the file is not read further \\(if you trust it, decompress it and open the result\\)$`,
      ),
    );
    // Refused just past the free allowance: the compressed bytes counted are the ones used,
    // however many the stream had handed over (all of them, when it came as one chunk).
    expect((e as { offset: number }).offset).toBeGreaterThan(FREE_INFLATED_BYTES);
    expect((e as { offset: number }).offset).toBeLessThan(FREE_INFLATED_BYTES + 4 * 1024 * 1024);
    expect(ms).toBeLessThan(30_000);
  });

  it('a gzip file that compresses as real profiles do is read whole, far past the free allowance', async () => {
    const lines: string[] = [];
    let total = 0;
    for (let i = 0; lines.length * 120 < 2 * FREE_INFLATED_BYTES; i++) {
      const n = (i % 97) + 1;
      total += n;
      lines.push(
        `node;node:internal/main/run_main_module;Module._load;Module._compile;/srv/app/server.js:handle;/srv/app/db.js:query${i % 7};leaf${i % 41} ${n}`,
      );
    }
    const text = enc.encode(`${lines.join('\n')}\n`);
    const gz = zlib.gzip(text);
    // (the ratio of the most compressible real files, 30–50:1)
    expect(text.length / gz.length).toBeGreaterThan(20);
    expect(text.length).toBeGreaterThan(2 * FREE_INFLATED_BYTES);
    const p = await importProfile(bytesSource('big.folded.gz', gz, 65_536));
    expect(p.tree.total[0]).toBe(total);
  });
});
