import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../errors';
import { forEachLine, forEachLineIn } from './lines';

const utf8 = new TextEncoder();

async function* deliver(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c <= from || c >= bytes.length) continue;
    yield bytes.subarray(from, c);
    from = c;
  }
  if (from < bytes.length) yield bytes.subarray(from);
}

async function linesOf(bytes: Uint8Array, cuts: readonly number[]): Promise<string[]> {
  const out: string[] = [];
  await forEachLine(deliver(bytes, cuts), 'f.txt', (line, lineNo) => {
    expect(lineNo).toBe(out.length + 1);
    out.push(line);
  });
  return out;
}

/** What the lines are by definition: the whole file decoded at once, cut at `\n`, a `\r` before it dropped. */
function expected(bytes: Uint8Array): string[] {
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text === '') return [];
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

// Characters of one to four bytes, line breaks of both kinds, and a byte that is no UTF-8.
const piece = fc.constantFrom('a', 'frame;', ' 12', 'é', '→', '😀', '\r', '\n', '\r\n', '\uFEFF', '\u2028', '\xff');
const line = fc.oneof(
  { weight: 8, arbitrary: fc.array(piece, { maxLength: 40 }).map((p) => p.join('')) },
  // longer than the pieces a chunk is decoded in, so that lines straddle several of them
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 60_000, max: 140_000 }), piece).map(([n, p]) => 'x'.repeat(n) + p) },
);

function bytesOf(parts: readonly string[]): Uint8Array {
  // '\xff' stands for a lone 0xFF byte, which no UTF-8 text has.
  const chunks = parts.map((p) => (p === '\xff' ? new Uint8Array([0xff]) : utf8.encode(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

describe('forEachLineIn', () => {
  it('gives the lines of the whole text, however the bytes are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(line, piece), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 }), async (parts, cutsRaw) => {
        const bytes = bytesOf(parts);
        const cuts = cutsRaw.map((c) => (bytes.length > 0 ? c % bytes.length : 0));
        expect(await linesOf(bytes, cuts)).toEqual(expected(bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('cuts a 1 MiB chunk into pieces without losing a character cut at a piece boundary', async () => {
    // A four-byte character across every 64 KiB boundary, and a CR LF across one.
    const unit = 'ab😀\r\n';
    let text = '';
    while (text.length < (1 << 20) / 2) text += `${unit}${'y'.repeat(65_531)}\r\n`;
    const bytes = utf8.encode(text);
    expect(await linesOf(bytes, [])).toEqual(expected(bytes));
    expect(await linesOf(bytes, [65_536, 65_538, 131_071])).toEqual(expected(bytes));
  });

  it('drops a byte-order mark only at the start of the file', async () => {
    const bytes = utf8.encode('\uFEFFfirst\n\uFEFFsecond\n');
    expect(await linesOf(bytes, [1, 2])).toEqual(['first', '\uFEFFsecond']);
  });

  it('hands a parser the rest of the text, and goes on where the parser says', async () => {
    const bytes = utf8.encode('a\nb\nc\nd\n');
    const seen: [string, number][] = [];
    await forEachLineIn(deliver(bytes, []), 'f.txt', (text, start, end, lineNo, cursor) => {
      seen.push([text.slice(start, end), lineNo]);
      if (text.slice(start, end) === 'a') {
        // takes "b" as well
        cursor.lines = 1;
        cursor.next = text.indexOf('c');
      }
    });
    expect(seen).toEqual([
      ['a', 1],
      ['c', 3],
      ['d', 4],
    ]);
  });

  it('refuses a line too long to be a profile line, naming the file and line', async () => {
    const big = new Uint8Array(1 << 20).fill(0x61);
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield utf8.encode('ok\n');
      for (let i = 0; i < 70; i++) yield big;
    }
    const err = await forEachLine(endless(), 'huge.txt', () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err).toMatchObject({ file: 'huge.txt', line: 2 });
    expect(String(err)).toContain('huge.txt:2: line is longer than');
  });
});
