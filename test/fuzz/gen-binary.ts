/**
 * Random binary files: bytes of any value, sometimes behind the first bytes of a format or of a
 * file someone might drop by mistake (gzip, UTF-16 byte-order marks, perf.data, PNG, ELF, zip,
 * JSON and HTML openings), so that detection and the first steps of every parser see them.
 */
import fc from 'fast-check';

const enc = (s: string) => Array.from(s, (c) => c.charCodeAt(0) & 0xff);

export const MAGICS: readonly number[][] = [
  [],
  [0x1f, 0x8b],
  [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03],
  [0xff, 0xfe],
  [0xfe, 0xff],
  [0xef, 0xbb, 0xbf],
  enc('PERFILE2'),
  [0x89, ...enc('PNG\r\n'), 0x1a, 0x0a],
  [0x7f, ...enc('ELF')],
  enc('PK\u0003\u0004'),
  enc('{'),
  enc('['),
  enc('[['),
  enc('{"nodes":['),
  enc('{"head":{'),
  enc('{"traceEvents":['),
  enc('{"code":['),
  enc('<html>'),
  enc('node 1 [000] 1.0: 1 cpu-clock:\n'),
  [0x0a, 0x04, 0x08, 0x01, 0x10, 0x02],
];

/** Random bytes behind an optional magic number; sizes from empty to 64 KiB. */
export const randomBinary: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.nat({ max: MAGICS.length - 1 }),
    fc.oneof(
      { weight: 4, arbitrary: fc.uint8Array({ maxLength: 512 }) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 4096, maxLength: 65_536 }) },
    ),
  )
  .map(([m, body]) => {
    const magic = MAGICS[m]!;
    const out = new Uint8Array(magic.length + body.length);
    out.set(magic);
    out.set(body, magic.length);
    return out;
  });
