/**
 * The line scanner (WebAssembly) is only a faster way to read folded stacks and perf script: a
 * file must import to exactly the same profile, warnings and errors with it as without it (lines
 * read one by one as text). Checked on generated files whose stacks, runs of frame lines and
 * header shapes come back many times (what the scanner remembers), with the oddities the fuzz
 * generators make (CR, blank and white-space lines, bad lines, odd counts and headers), read in
 * chunks of any size; and the module is what its source compiles to.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { collapse } from '../../model/collapse';
import { foldedImporter } from '../formats/folded/folded';
import { perfScriptImporter } from '../formats/perf/perf-script';
import { foldedLine, perfSample } from '../../../test/fuzz/gen-text';
import { digest } from '../../../test/support/digest';
import { random } from '../../../test/support/repeats';
import { REC, Rec, scanRecords, setLineScannerEnabled } from './line-scanner';
import { bytesSource, openSource } from './source';

afterEach(() => setLineScannerEnabled(true));

type Outcome = { ok: true; profile: unknown } | { ok: false; error: string };

async function read(name: string, bytes: Uint8Array, chunk: number, scanner: boolean): Promise<Outcome> {
  setLineScannerEnabled(scanner);
  // straight to the importer, whatever its content test would say of the file
  const importer = name.endsWith('.folded') ? foldedImporter : perfScriptImporter;
  try {
    const source = await openSource(bytesSource(name, bytes, chunk));
    return { ok: true, profile: await importer.parse({ file: name, source, options: {} }) };
  } catch (e) {
    return { ok: false, error: String(e) };
  } finally {
    setLineScannerEnabled(true);
  }
}

/**
 * A file made of `picks` of the `pool`: the same pieces again and again, in any order; perhaps
 * after one or two byte-order marks (the source drops one, the line reader a second one).
 */
const repeated = (piece: fc.Arbitrary<string>, eol: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(piece, { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
      eol,
      fc.constantFrom('', '\ufeff', '\ufeff\ufeff'),
    )
    .map(
      ([pool, picks, nl, bom]) =>
        bom +
        picks
          .map((i) => pool[i % pool.length]!)
          .join('')
          .replaceAll('\n', nl),
    );

const chunkArb = fc.oneof(fc.constant(1 << 20), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 4096 }));

async function agree(name: string, text: string, chunk: number): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  const fast = await read(name, bytes, chunk, true);
  const plain = await read(name, bytes, 1 << 20, false);
  expect(fast).toEqual(plain);
}

describe('the line scanner imports what reading line by line imports', () => {
  it('a second byte-order mark on line 1 is not taken for part of a stack a later line repeats', async () => {
    // found by the property below: line 1's mark was dropped when it was decoded, and line 2,
    // the same bytes, was taken for the same stack (its frame U+FEFF became '')
    for (const text of ['\uFEFF\uFEFF;main 0\n\uFEFF;main 0\n', '\uFEFF\uFEFF\uFEFF;a 1\n\uFEFF;a 2\n;a 1\n', '\uFEFF;a 1\n'])
      for (const chunk of [1, 2, 3, 5, 1 << 20]) await agree('x.folded', text, chunk);
  });

  it('folded stacks', async () => {
    const line = foldedLine.map((l) => `${l}\n`);
    await fc.assert(
      fc.asyncProperty(repeated(line, fc.constantFrom('\n', '\r\n')), chunkArb, (text, chunk) => agree('x.folded', text, chunk)),
      { numRuns: Number(process.env.FLAMELENS_SCAN_RUNS ?? 300) },
    );
  });

  it('perf script', async () => {
    // Samples whose headers differ only in their time, so that header shapes are met again:
    // well-formed ones from a few threads and frame lines, and the generator's odd ones.
    const time = fc.nat({ max: 99999 }).map((t) => `${t}.${String(t % 1000).padStart(6, '0')}`);
    const frameLine = fc.constantFrom(
      '\t    7f5dd70a6f0c JS:^processTicksAndRejections node:internal/process/task_queues:67:35+0x44c (/tmp/perf-6855.map)',
      '\t          ed184d v8::internal::FeedbackNexus::ConfigureMonomorphic+0x14d (/usr/bin/node)',
      '\tffffffff822018b1 _raw_spin_unlock_irq+0x11 ([kernel.kallsyms])',
      '\t           8f26b pthread_rwlock_wrlock@@GLIBC_2.34+0xb (/usr/lib/x86_64-linux-gnu/libc.so.6)',
      '\t          14aca14 uv_run+0x2f4 (/usr/bin/node)',
      '\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6) stray',
      // symbols and dso columns at the edges of what the scanner reads itself
      '\t          14aca14 uv_run+0x2F4 (/usr/bin/node)',
      '\t          14aca14 uv_run+0x (/usr/bin/node)',
      '\t          14aca14 uv_run+0x0x1f (/usr/bin/node)',
      '\t          14aca14 +0x1f (/usr/bin/node)',
      '\t          14aca14 a+0x1+0xab (/usr/bin/node)',
      '\t          14aca14 uv_run+0x2f4  (/usr/bin/node)',
      '\t    7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)',
      '\t    7f1e2215d058 [unknown] ([unknown])',
      '\t    7f1e2215d058 [unknown] (/tmp/perf-6855.map)',
      '\t    7f1e2215d058 (anonymous) (/usr/bin/node)',
      '\t    7f1e2215d058 arrayOopDesc::base(BasicType) const (/opt/jdk/lib/server/libjvm.so)',
      '\t    7f1e2215d058 net/http.(*Client).Do (/app/server)',
      '\t    7f1e2215d058 f (a(b)',
      '\t    7f1e2215d058 f (a)b)',
      '\t    7f1e2215d058 f ()',
      '\t    7f1e2215d058 f (a b)',
      '\t    7f1e2215d058 f\t(/usr/bin/node)',
      '\t    7f1e2215d058 LSimpleTemplateScript3;::run->Lorg/Call;::call (/tmp/perf-77.map)',
      ' 7f1e2215d058 JS:*handler /srv/app/server.js:12:3 (/tmp/perf-6855.map)',
      '\t    -1 f (/usr/bin/node)',
      '\t    7f1e2215d058 f (/usr/bin/node\u00e9)',
    );
    const wellFormed = fc
      .tuple(
        fc.constantFrom('node  6855', 'node  6855/6860', 'V8 WorkerThread  6855/6861', 'java 77/78'),
        time,
        fc.constantFrom('    1001001 cpu-clock:pppH: ', ' 250000 cycles:u: ', ' instructions:'),
        fc.array(frameLine, { minLength: 1, maxLength: 5 }),
      )
      .map(([who, t, tail, frames]) => `${who} ${t}:${tail}\n${frames.join('\n')}\n\n`);
    const odd = fc.tuple(perfSample, time).map(([s, t]) => s.replace(/ \d+\.\d+:/, ` ${t}:`));
    const sample = fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 1, arbitrary: odd });
    await fc.assert(
      fc.asyncProperty(repeated(sample, fc.constantFrom('\n', '\r\n')), chunkArb, (text, chunk) => agree('x.perf', text, chunk)),
      { numRuns: Number(process.env.FLAMELENS_SCAN_RUNS ?? 300) },
    );
  });

  it('folded counts added in file order, fractions among them', async () => {
    // (added in another order, 0.1 + 3 + 0.7 + … and the fractions first come out different)
    const counts = ['0.1', '3', '0.7', '5', '0.3', '1', '0.9', '7', '0.1', '0.6'];
    const text = counts.map((c) => `main;a;b ${c}\nmain;a ${c}\n`).join('');
    for (const chunk of [1 << 20, 7]) await agree('x.folded', text, chunk);
  });

  it('real captures, in chunks of many sizes', async () => {
    const { readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const perf = new Uint8Array(
      gunzipSync(readFileSync(new URL('../../../fixtures/samples/ddtrace/perf.F999.script.txt.gz', import.meta.url))),
    );
    const text = new TextDecoder().decode(perf);
    for (const chunk of [1 << 20, 4093, 100]) await agree('x.perf', text + text, chunk);
    const profile = await perfScriptImporter.parse({ file: 'x.perf', source: await openSource(bytesSource('x.perf', perf)), options: {} });
    const folded = `${collapse(profile).join('\n')}\n`;
    for (const chunk of [1 << 20, 4093, 100]) await agree('x.folded', folded + folded, chunk);
  });
});

/** The perf script `text` scanned in `chunk`-byte pieces: each run's number, whether it was met before, and how many runs were found whole. */
async function scanRuns(text: string, chunk: number): Promise<{ ids: number[]; known: boolean[]; found: number }> {
  const source = await openSource(bytesSource('x.perf', text, chunk));
  const ids: number[] = [];
  const known: boolean[] = [];
  let found = 0;
  await scanRecords(source, 'x.perf', 'perf', (b) => {
    found = b.runsFound;
    for (let i = 0; i < b.count; i++) {
      b.line(i);
      if (b.records[i * REC] !== Rec.Run) continue;
      ids.push(b.records[i * REC + 3]!);
      known.push(b.records[i * REC + 6] === -1);
    }
  });
  return { ids, known, found };
}

describe('what the scanner recognises', () => {
  it('a run of frame lines met before, found whole with the number it got first', async () => {
    // runs of 1 to 40 lines (16 to 2,000 bytes: every way a run can end within a 16-byte block),
    // each after a header, in two copies at other times
    const runs = Array.from({ length: 40 }, (_, n) =>
      Array.from(
        { length: n + 1 },
        (_, k) => `\t${(0x7f00 + k * 37).toString(16)} f${k}${'x'.repeat((n * 7 + k) % 23)}+0x${k} (/usr/bin/node)`,
      ).join('\n'),
    );
    const text = [0, 1].flatMap((copy) => runs.map((r, i) => `node 1 ${copy * 100 + i}.000001: 1 cpu-clock: \n${r}\n\n`)).join('');
    const { ids: runIds, known, found } = await scanRuns(text, 4096);
    expect(runIds).toHaveLength(80);
    // the first copy: every run new (its lines numbered); the second: every run known, as first numbered
    expect(known.slice(0, 40).every((k) => !k)).toBe(true);
    expect(runIds.slice(0, 40).every((id) => id >= 0)).toBe(true);
    expect(known.slice(40)).toEqual(known.slice(40).map(() => true));
    expect(runIds.slice(40)).toEqual(runIds.slice(0, 40));
    // and found on their bytes, not read line by line again
    expect(found).toBe(40);
  });

  it('runs that begin alike, many of them, around the length of the head they are indexed by', async () => {
    // 600 runs (more than the index's first buckets hold): groups of 50 share up to 200 bytes of
    // head, then differ in a last line that makes them 100 to 300 bytes long, or are that head
    // alone; in three copies at other times, the later ones in another order
    const head = (g: number) => `\t1 ${'h'.repeat(60)}${g} (/usr/bin/node)\n\t2 ${'i'.repeat(90)} (/usr/bin/node)\n`;
    const runs = Array.from({ length: 600 }, (_, i) => {
      // some are just the head: the first lines of others
      if (i < 12) return head(i).slice(0, -1);
      const base = head(i % 12).slice(0, 40 + ((i * 7) % 170));
      const cut = base.lastIndexOf('\n') + 1;
      return `${base.slice(0, cut)}\t${i.toString(16)} f${'x'.repeat(i % 90)} (/usr/bin/node)`;
    });
    const order = (copy: number) => runs.map((_, i) => (copy === 0 ? i : (i * (copy === 1 ? 7 : 13)) % runs.length));
    const text = [0, 1, 2]
      .flatMap((copy) => order(copy).map((i, k) => `node 1 ${copy * 1000 + k}.000001: 1 cpu-clock: \n${runs[i]}\n\n`))
      .join('');
    for (const chunk of [1 << 20, 997]) {
      const { ids, known, found } = await scanRuns(text, chunk);
      expect(ids).toHaveLength(1800);
      expect(new Set(ids.slice(0, 600)).size).toBe(600);
      expect(known.slice(0, 600).some((k) => k)).toBe(false);
      for (const copy of [1, 2]) {
        const o = order(copy);
        expect(ids.slice(copy * 600, copy * 600 + 600)).toEqual(o.map((i) => ids[i]));
        expect(known.slice(copy * 600, copy * 600 + 600).every((k) => k)).toBe(true);
      }
      // (a run cut by the end of a chunk is read line by line, and is known all the same)
      if (chunk > text.length) expect(found).toBe(1200);
    }
    // and the whole file imports as it does line by line
    await agree('x.perf', text, 997);
  });
});

/** Whether the scanner, having read the folded `text`, still remembers the stacks it met. */
async function remembersAtEnd(text: string, chunk: number): Promise<boolean> {
  let remembers = true;
  await scanRecords(await openSource(bytesSource('x.folded', text, chunk)), 'x.folded', 'folded', (b) => {
    remembers = b.remembersStacks;
  });
  return remembers;
}

/** `n` distinct stacks of 2 to 13 frames named from a small set (so that lines share prefixes). */
function distinctStacks(n: number, seed: number): string[] {
  const rnd = random(seed).uniform;
  const seen = new Set<string>();
  while (seen.size < n) {
    const depth = 2 + Math.floor(rnd() * 12);
    seen.add(
      Array.from({ length: depth }, () => `fn${Math.floor(rnd() * 40)}_${rnd() < 0.5 ? 'app/lib' : 'node_modules/dd-trace/src'}`).join(';'),
    );
  }
  return [...seen];
}

describe('folded stacks written once each, as collapsers write them', () => {
  // odd lines after the scanner has stopped remembering stacks: read as text, as before
  const odd = ['', 'not a line', 'a;b 1.5', 'a\r;b 3', 'a;b\u2028c 2', 'x;y 9007199254740993', '\ufeffa;b 4', ' \t 3', 'a;b\t7'];

  it('are no longer remembered after the first 16,384 when few come again, and import as line by line, in any order', async () => {
    const stacks = distinctStacks(17_000, 7);
    const rnd = random(11).uniform;
    const counted = (x: string) => `${x} ${1 + Math.floor(rnd() * 500)}`;
    const shuffled = stacks.map(counted);
    const sorted = [...stacks].sort().map(counted);
    // one line in fifty met again (a stack split across two processes' output), and odd lines late
    const someAgain = shuffled.flatMap((l, i) => (i % 50 === 49 ? [l, shuffled[i - 30]!] : [l]));
    for (const lines of [shuffled, sorted, someAgain]) {
      const text = `${[...lines, ...odd, ...lines.slice(0, 300)].join('\n')}\n`;
      expect(await remembersAtEnd(text, 1 << 20)).toBe(false);
      const bytes = new TextEncoder().encode(text);
      const plain = digest(await read('x.folded', bytes, 1 << 20, false));
      // (in small chunks the buffer moves under the line walked last, which the next compares with)
      for (const chunk of [1 << 20, 4093]) expect(digest(await read('x.folded', bytes, chunk, true))).toEqual(plain);
    }
  });

  it('grow the call tree where it is, and import as line by line however it grew', async () => {
    const total = { inPlace: 0, anew: 0, late: 0 };
    for (let seed = 1; seed <= 8; seed++) {
      // 12,000 distinct stacks, each frame a new label under its parent: ~50,000 nodes
      const rnd = random(seed).uniform;
      const lines = Array.from({ length: 12_000 }, (_, i) => {
        const depth = 2 + Math.floor(rnd() * 8);
        return `${Array.from({ length: depth }, (_, d) => `f${d}_${Math.floor(rnd() * (d < 2 ? 30 : 3000))}`).join(';')};leaf${i} ${1 + (i % 9)}`;
      });
      const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
      let growth = { inPlace: 0, anew: 0, late: 0 };
      await scanRecords(await openSource(bytesSource('x.folded', bytes, 1 << 20)), 'x.folded', 'folded', (b) => {
        growth = b.nodeGrowth;
      });
      for (const k of ['inPlace', 'anew', 'late'] as const) total[k] += growth[k];
      const plain = digest(await read('x.folded', bytes, 1 << 20, false));
      expect(digest(await read('x.folded', bytes, seed % 2 ? 1 << 20 : 65_521, true))).toEqual(plain);
    }
    // both ways (into a new table with room to grow, where blocks come after it), and nodes that
    // wrapped around the end of the table placed last
    expect(total.inPlace).toBeGreaterThan(total.anew);
    expect(total.anew).toBeGreaterThan(0);
    expect(total.late).toBeGreaterThan(0);
  });

  it('stay remembered where lines come again (the same stacks written many times)', async () => {
    const stacks = distinctStacks(2_000, 3);
    const lines = Array.from({ length: 20 }, (_, copy) => stacks.map((x, i) => `${x} ${1 + ((i * 7 + copy) % 30)}`)).flat();
    const text = `${lines.join('\n')}\n`;
    expect(await remembersAtEnd(text, 1 << 20)).toBe(true);
    await agree('x.folded', text, 1 << 20);
  });
});

describe('the WebAssembly module', () => {
  it('is what wasm/line-scanner.ts compiles to', () => {
    const r = spawnSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], {
      cwd: new URL('../../../', import.meta.url),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
