/**
 * Inputs that inflate to more than any real profile — a small gzip file holding one endless JSON
 * string, one endless line, or a gigabyte of pprof — end quickly with an error naming the file and
 * the limit, instead of taking the machine's memory first. The sources here hand out the same
 * chunk over and over, so the test itself holds only what the importer keeps.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PPROF_BYTES } from './formats/pprof';
import { importProfile } from './import-profile';
import { MAX_JSON_VALUE_BYTES } from './json-stream';
import type { ByteSource } from './source';

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
    expect(message).toBe('x.folded:2: line is longer than 67108864 characters');
    // Looking for the line's end again from its start on every chunk took minutes for 1 GB.
    expect(ms).toBeLessThan(20_000);
  });
});
