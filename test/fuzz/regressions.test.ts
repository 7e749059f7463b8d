/**
 * One tiny reproduction of every failure the fuzz suite found, each with the oracle's verdict and
 * what the fix promises. Cases that once hung run in a worker with the fuzz suite's time limit.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CASE_MS } from './fuzz-run';
import { FuzzPool } from './fuzz-pool';
import { bytesSource } from '../../shared/import/io/source';
import { importProfile } from '../../shared/import/import-profile';
import { ImportError } from '../../shared/import/errors';
import { Category, type Profile } from '../../shared/model/types';
import { checkProfile } from '../../shared/model/integrity';
import { collapse } from '../../shared/model/collapse';
import { splitFoldedLine } from '../../shared/import/formats/folded/folded';
import { splitHermesName } from '../../shared/import/formats/trace/trace-hermes';
import { type FuzzInput, type Outcome, judge, runCase } from './fuzz-harness';
import { Proto } from './gen-pprof';
import { HTML_HEAD } from './gen-zeroex';
import { timeColumn } from '../../shared/model/sample-times';

const enc = new TextEncoder();

function input(name: string, content: string | Uint8Array, chunk = 1 << 20): FuzzInput {
  return { name, bytes: typeof content === 'string' ? enc.encode(content) : content, chunk, label: name };
}

/** Runs a case in this thread; fails the test with the oracle's verdict when there is one. */
async function accepted(i: FuzzInput): Promise<Outcome> {
  const out = await runCase(i);
  expect(judge(i, out)).toBeUndefined();
  return out;
}

async function load(name: string, content: string | Uint8Array, chunk?: number): Promise<Profile> {
  const p = await importProfile(bytesSource(name, content, chunk));
  expect(checkProfile(p)).toEqual([]);
  return p;
}

async function failure(name: string, content: string | Uint8Array, chunk?: number): Promise<ImportError> {
  const e = await importProfile(bytesSource(name, content, chunk)).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ImportError);
  return e as ImportError;
}

describe('fuzz regressions: numbers past what a double or a column holds', () => {
  it('folded: a 400-digit count was an Infinity weight; the line is skipped with a warning', async () => {
    const p = await load('x.folded', `a;b;c 1\na;b ${'9'.repeat(400)}\n`);
    expect(p.tree.total[0]).toBe(1);
    expect(p.meta.warnings.join()).toMatch(/1 line\(s\) whose count is too large to be one \(over 2\^53\), first at line 2/);
  });

  it('perf script: a 400-digit period was an Infinity weight; the sample is left out with a warning', async () => {
    const text = `node 1 [000] 1.0: ${'9'.repeat(400)} cpu-clock:\n\tffff a (/b)\n\nnode 1 [000] 2.0: 7 cpu-clock:\n\tffff c (/b)\n\n`;
    const p = await load('perf.script.txt', text);
    expect(p.tree.total[0]).toBe(7);
    expect(p.meta.warnings.join()).toMatch(/left out 1 sample\(s\) whose period is past 2\^53, first at line 1/);
  });

  it('perf script: a 400-digit timestamp was an Infinity time; it is unknown', async () => {
    const p = await load('perf.script.txt', `node 1 [000] ${'9'.repeat(400)}.5: 1 cpu-clock:\n\tffff a (/b)\n\n`);
    expect(timeColumn(p.samples!)[0]).toBeNaN();
    expect(p.meta.startTime).toBeUndefined();
  });

  it('.cpuprofile: "startTime":1e400 made meta.startTime Infinity', async () => {
    const text =
      '{"head":{"functionName":"","children":[{"functionName":"main","children":[]}]},"startTime":1e400,"endTime":0,"samples":[],"timestamps":[]}';
    const p = await load('x.cpuprofile', text);
    expect(p.meta.startTime).toBeUndefined();
  });

  it('.cpuprofile: time deltas that add up past a double made sample times Infinity; they are unknown', async () => {
    const nodes =
      '[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"f","url":"/a.js"}}]';
    const p = await load('x.cpuprofile', `{"nodes":${nodes},"startTime":0,"endTime":1,"samples":[2,2,2],"timeDeltas":[1,1e308,1e308]}`);
    expect(Array.from(timeColumn(p.samples!))).toEqual([1, NaN, NaN]);
    expect(p.meta.warnings.join()).toMatch(/2 sample time\(s\) are past 2\^53 microseconds/);
  });

  it('.cpuprofile: huge hitCounts (no samples) added up to Infinity; they are ignored', async () => {
    const nodes =
      '[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2,3]},{"id":2,"callFrame":{"functionName":"f","url":"/a.js"},"hitCount":1.5e308},{"id":3,"callFrame":{"functionName":"g","url":"/a.js"},"hitCount":1.5e308}]';
    await load('x.cpuprofile', `{"nodes":${nodes},"startTime":0,"endTime":1}`);
  });

  it('.heapprofile: selfSizes that add up past a double are not byte counts', async () => {
    const node = (n: string) => `{"callFrame":{"functionName":"${n}","url":"/a.js","lineNumber":1},"selfSize":1.5e308,"children":[]}`;
    const p = await load(
      'x.heapprofile',
      `{"head":{"callFrame":{"functionName":"(root)","url":""},"selfSize":0,"children":[${node('a')},${node('b')}]}}`,
    );
    expect(p.meta.warnings.join()).toMatch(/2 node\(s\) have a "selfSize" that is not a byte count/);
  });

  it('line numbers of 2^31 and more became negative in the Int32Array column; they are unknown (0)', async () => {
    const text =
      '{"head":{"selfSize":0,"children":[{"callFrame":{"functionName":"main","url":"/a.js","lineNumber":2147483648,"columnNumber":4294967296},"selfSize":5,"children":[]}]}}';
    const p = await load('x.heapprofile', text);
    expect(p.frames.line[0]).toBe(0);
    expect(p.frames.column[0]).toBe(0);
  });

  it('trace events: spans at ±1e308 µs made self times and meta.endTime Infinity; such times count as missing', async () => {
    const ev = (ts: number, dur: number, name: string) => ({ ph: 'X', ts, dur, name, pid: 1, tid: 1 });
    const text = JSON.stringify([ev(-1e308, 1, 'a'), ev(1e308, 1.7e308, 'b'), ev(5, 10, 'c'), ev(6, 1e300, 'd')]);
    const p = await load('trace.json', text);
    expect(p.meta.warnings.join()).toMatch(/skipped 2 span event\(s\) without a numeric "ts"/);
    expect(p.meta.endTime).toBe(15);
  });

  it('trace events: a CPU profile with no usable time left meta.startTime NaN and endTime -Infinity', async () => {
    const text =
      '[{"name":"CpuProfile","ph":"I","cat":"disabled-by-default-devtools.timeline","pid":1,"tid":1,"ts":"1e400","args":{"data":{"cpuProfile":{"nodes":[],"samples":[0],"timeDeltas":[],"startTime":9007199254740992,"endTime":0}}}}]';
    const p = await load('trace.json', text);
    expect(p.meta.startTime).toBeUndefined();
    expect(p.meta.endTime).toBeUndefined();
  });

  it('0x v8 log JSON: "tm":1e400 made a sample time Infinity', async () => {
    const p = await load('isolate-0x1-v8.log.json', '{"code":[{"name":"a","type":"CPP"}],"ticks":[{"tm":1e400,"vm":6,"s":[0,0]}]}');
    expect(timeColumn(p.samples!)[0]).toBeNaN();
  });

  it('0x flamegraph.html: tree counts that add up past a double are counted as 0', async () => {
    const html = `${HTML_HEAD}visualizer({"unmerged":{"name":"all stacks","top":0,"children":[{"name":"a /x.js:1:1","fn":"a /x.js:1:1","S":1,"top":1.5e308,"children":[]},{"name":"b [CPP]","S":0,"top":1.5e308,"children":[]},{"name":"c [CPP]","S":0,"top":2,"children":[]}]}})</script>`;
    const p = await load('flamegraph.html', html);
    expect(p.tree.total[0]).toBe(2);
    expect(p.meta.warnings.join()).toMatch(/2 node\(s\) have a sample count past 2\^53/);
  });

  it('pprof: values past 2^53 are left out with a warning', async () => {
    const pb = new Proto()
      .message(1, new Proto().uint(1, 1).uint(2, 2))
      .message(2, new Proto().packed(1, [1]).packed(2, [2n ** 63n - 1n]))
      .message(2, new Proto().packed(1, [1]).packed(2, [3]))
      .message(4, new Proto().uint(1, 1).message(4, new Proto().uint(1, 1).uint(2, 7)))
      .message(5, new Proto().uint(1, 1).uint(2, 3))
      .string(6, '')
      .string(6, 'samples')
      .string(6, 'count')
      .string(6, 'f')
      .finish();
    const p = await load('cpu.pb', pb);
    expect(p.tree.total[0]).toBe(3);
    expect(p.meta.warnings.join()).toMatch(/1 sample\(s\) with a samples value past 2\^53 were left out/);
  });
});

describe('fuzz regressions: names from the file in messages', () => {
  it('pprof: a sample type named "\\r" made a message the oracle could not read; it is quoted and escaped', async () => {
    // found by a run of 100,000 cases per format (generated pprof, case 32,856)
    const bytes = Uint8Array.from(atob('CgQIBRAAMgAyADIAMgAyADIBDUgAUABaBAgAEABg////////////AXAA'), (c) => c.charCodeAt(0));
    const e = await failure('cpu.pb.gz', bytes);
    expect(e.message).toBe('cpu.pb.gz: the profile has no samples with a "\\r" value');
    expect(await accepted(input('cpu.pb.gz', bytes))).toMatchObject({ kind: 'import-error' });
  });
});

describe('fuzz regressions: errors that were not ImportErrors', () => {
  const gz = gzipSync(enc.encode('a;b;c 1\na;b 2\n'.repeat(1000)));

  it('a cut-off gzip file threw zlib\'s bare "unexpected end of file"', async () => {
    // cut within the first 64 KiB of content, which are read before any importer runs: no place is known
    let e = await failure('x.folded', gz.subarray(0, gz.length - 20));
    expect(e.message).toBe('x.folded: the gzip data is damaged or cut off (unexpected end of file); the file cannot be decompressed');
    await accepted(input('x.folded', gz.subarray(0, gz.length - 20)));
    // cut further on: the error says how far the content could be read
    const big = gzipSync(enc.encode('a;b;c 1\na;b 2\n'.repeat(20_000)));
    e = await failure('x.folded', big.subarray(0, big.length - 20));
    expect(e.message).toMatch(
      /^x\.folded \(byte \d+\): the gzip data is damaged or cut off after \d+ bytes of content \(unexpected end of file\)/,
    );
    expect(e.offset).toBeGreaterThan(65_536);
    await accepted(input('x.folded', big.subarray(0, big.length - 20)));
  });

  it('damaged gzip data threw a bare zlib error', async () => {
    const damaged = Uint8Array.from(gz);
    damaged[30]! ^= 0xff;
    const e = await failure('x.folded', damaged);
    expect(e.detail).toMatch(/^the gzip data is damaged or cut off/);
    await accepted(input('x.folded', damaged));
  });

  it('a file of only the gzip magic bytes, read one byte at a time, is a damaged gzip file', async () => {
    const e = await failure('profile', Uint8Array.of(0x1f, 0x8b), 1);
    expect(e.detail).toMatch(/^the gzip data is damaged or cut off \(unexpected end of file\)/);
    await accepted(input('profile', Uint8Array.of(0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x02), 1));
  });

  it('trace events: span args nested 100,000 deep overflowed the stack in JSON.stringify', async () => {
    const args = `${'{"a":['.repeat(100_000)}1${']}'.repeat(100_000)}`;
    const text = `[{"ph":"B","name":"f","ts":1,"pid":1,"tid":1,"args":${args}},{"ph":"E","name":"f","ts":2,"pid":1,"tid":1}]`;
    const out = await accepted(input('trace.json', text));
    expect(out.kind === 'profile' && out.total).toBe(1);
  });

  it('a 200,000-character value or key went whole into the message', async () => {
    let e = await failure('x.cpuprofile', `{"nodes":[{"id":1,"callFrame":{}}],"samples":["${'x'.repeat(200_000)}"]}`);
    expect(e.detail).toMatch(/^"samples" holds "x{39}…, expected a number$/);
    e = await failure('trace.json', `{"traceEvents":[], "${'k'.repeat(200_000)}" 1}`);
    expect(e.detail.length).toBeLessThanOrEqual(1000);
    expect(e.detail).toMatch(/^expected ':' after key "k+ … k+"$/);
  });

  it('0x flamegraph.html: a string with a bad escape threw a SyntaxError', async () => {
    const html = `${HTML_HEAD}visualizer({"merged":{"na\\xme":"a","top":1,"children":[]}})</script>`;
    const e = await failure('flamegraph.html', html);
    expect(e.detail).toMatch(/^invalid string "na\\\\xme" in the embedded trees/);
    expect(e.offset).toBe(html.indexOf('xme"') + 3);
  });
});

describe('fuzz regressions: keys of the file taken for properties of the parser', () => {
  it('0x v8 log JSON: a stack index "length" named a frame that does not exist', async () => {
    const p = await load('isolate-0x1-v8.log.json', '{"code":[{"name":"a","type":"CPP"}],"ticks":[{"tm":1,"s":["length",0,0,0]}]}');
    expect(p.frames.length).toBe(1);
  });

  it('pprof: a function named "constructor" was given the category App (Object.prototype.constructor)', async () => {
    const pb = new Proto()
      .message(1, new Proto().uint(1, 1).uint(2, 2))
      .message(2, new Proto().packed(1, [1]).packed(2, [1]))
      .message(4, new Proto().uint(1, 1).message(4, new Proto().uint(1, 1)))
      .message(5, new Proto().uint(1, 1).uint(2, 3))
      .string(6, '')
      .string(6, 'samples')
      .string(6, 'count')
      .string(6, 'constructor')
      .finish();
    const p = await load('cpu.pb', pb);
    expect(p.frames.name[0]).toBe('constructor');
    expect(p.frames.category[0]).toBe(Category.Other);
  });

  it('Hermes: a sample frame "__proto__" found Object.prototype; it is an unknown frame', async () => {
    const text = JSON.stringify({
      traceEvents: [],
      stackFrames: { '1': { name: 'a' } },
      samples: [{ ts: '1', tid: '1', sf: '__proto__' }],
    });
    const p = await load('trace.json', text);
    expect(p.frames.name).toEqual(['(unknown)']);
  });
});

describe('fuzz regressions: parent cycles', () => {
  it('Hermes: a frame that is its own parent made a 100,000-deep stack (and, with a long name, a 27 s import)', async () => {
    const text = JSON.stringify({
      traceEvents: [],
      stackFrames: { '1': { name: 'a', parent: 2 }, '2': { name: 'b', parent: 1 } },
      samples: [{ ts: '1', tid: '1', sf: 1 }],
    });
    const p = await load('trace.json', text);
    expect(p.tree.length).toBe(3);
    expect(p.meta.warnings.join()).toMatch(/1 cycle\(s\) in the parent links of stackFrames/);
  });

  it('Chrome CPU profile events: a parent cycle repeated its nodes until the stack was longer than the profile', async () => {
    const node = (id: number, parent: number, name: string) => ({
      id,
      parent,
      callFrame: { functionName: name, url: '/a.js', scriptId: 1 },
    });
    const events = [
      {
        ph: 'P',
        name: 'Profile',
        id: '0x1',
        pid: 1,
        tid: 1,
        ts: 0,
        cat: 'disabled-by-default-v8.cpu_profiler',
        args: { data: { startTime: 0 } },
      },
      {
        ph: 'P',
        name: 'ProfileChunk',
        id: '0x1',
        pid: 1,
        tid: 1,
        ts: 1,
        cat: 'disabled-by-default-v8.cpu_profiler',
        args: { data: { cpuProfile: { nodes: [node(1, 3, 'a'), node(2, 1, 'b'), node(3, 2, 'c')], samples: [1] }, timeDeltas: [1] } },
      },
    ];
    const p = await load('trace.json', JSON.stringify(events));
    expect(p.tree.length).toBe(4);
    expect(p.meta.warnings.join()).toMatch(/1 cycle\(s\) in the profile's parent links/);
  });
});

describe('fuzz regressions: work that grew faster than the input', () => {
  const pool = new FuzzPool({ timeoutMs: CASE_MS });
  afterAll(() => pool.close());
  const bounded = async (i: FuzzInput) => {
    const out = await pool.run(i);
    expect(judge(i, out)).toBeUndefined();
    return out;
  };

  it('folded: a 40,000-character line without a count took 6 s (a backtracking regular expression)', async () => {
    const out = await bounded(input('x.folded', `a;b 1\nc;d 2\n${'x'.repeat(200_000)}\n${'y '.repeat(100_000)}z\n`));
    expect(out.kind).toBe('profile');
  });

  it('perf script: a frame line of 100,000 " (" searched the whole line for each one (16 s)', async () => {
    const out = await bounded(input('perf.script.txt', `node 1 [000] 1.0: 1 cpu-clock:\n\t7f4d74061181 f${' ('.repeat(100_000)}\n\n`));
    expect(out.kind).toBe('profile');
  });

  it('.cpuprofile read a byte at a time: a 5,000-byte string open across 5,000 pieces made giving the pieces back cubic (over 10 s)', async () => {
    const name = 'x'.repeat(5000);
    const text = JSON.stringify({
      nodes: [{ id: 1, callFrame: { functionName: name, url: '', lineNumber: 0, columnNumber: 0 } }],
      startTime: 0,
      endTime: 1,
      samples: [1],
      timeDeltas: [1],
    });
    const out = await bounded(input('x.cpuprofile', text, 1));
    expect(out.kind).toBe('profile');
  });

  it('Hermes: a frame name of 200,000 "(" made a regular expression backtrack (minutes)', async () => {
    const text = JSON.stringify({
      traceEvents: [],
      stackFrames: { '1': { name: '('.repeat(200_000) } },
      samples: [{ ts: '1', tid: '1', sf: 1 }],
    });
    const out = await bounded(input('trace.json', text));
    expect(out.kind).toBe('profile');
  });

  // The linear rewrites say exactly what the regular expressions they replace said.
  const alphabet = fc.constantFrom('a', ';', ' ', '\t', '1', '2', '.', ':', '(', ')', '\n', '\r', '\u2028', '\u00a0', '\ufeff', 'x');
  const text = fc.array(alphabet, { maxLength: 16 }).map((cs) => cs.join(''));

  it('splitFoldedLine matches /^(.*\\S.*|.*;.*)\\s(\\d+(?:\\.\\d*)?)$/', () => {
    const LINE = /^(.*\S.*|.*;.*)\s(\d+(?:\.\d*)?)$/;
    fc.assert(
      fc.property(text, (s) => {
        const m = LINE.exec(s);
        expect(splitFoldedLine(s)).toEqual(m ? [m[1], m[2]] : undefined);
      }),
      { numRuns: 20_000 },
    );
  });

  it('splitHermesName matches /^(.*)\\((.*):(\\d+):(\\d+)\\)$/', () => {
    const HERMES_NAME = /^(.*)\((.*):(\d+):(\d+)\)$/;
    fc.assert(
      fc.property(text, (s) => {
        const m = HERMES_NAME.exec(s);
        expect(splitHermesName(s)).toEqual(m ? { name: m[1], file: m[2], line: Number(m[3]), column: Number(m[4]) } : undefined);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('three files dropped at once: a random binary, a cut-off trace, an empty file', () => {
  it('each ends in a clear error or a profile that says what was tolerated', async () => {
    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24);
    const trace =
      '{"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":5,"pid":1,"tid":1},{"ph":"X","name":"b","ts":2,"dur":1,"pid":1,"tid":1},{"ph":"B","na';
    const [b, t, e] = await Promise.allSettled([
      importProfile(bytesSource('core.bin', binary)),
      importProfile(bytesSource('node_trace.1.log', trace)),
      importProfile(bytesSource('empty.cpuprofile', new Uint8Array(0))),
    ]);
    expect(b.status === 'rejected' && String(b.reason)).toMatch(
      /^ImportError: core\.bin: a binary file that is not a known profile format\. Supported: /,
    );
    expect(t.status === 'fulfilled' && t.value.meta.warnings[0]).toMatch(
      /the file ends before the closing "\]".*read 2 complete event\(s\)/,
    );
    expect(e.status === 'rejected' && String(e.reason)).toBe('ImportError: empty.cpuprofile: the file is empty');
  });
});

describe('fuzz regressions: the stream layer (source.ts)', () => {
  // `openSource` decided on UTF-16 and a UTF-8 byte-order mark from the first 2 bytes: when a
  // stream's first chunks were shorter than 4 bytes, BOM-less UTF-16 was taken for binary and a
  // UTF-8 BOM stayed in the bytes the JSON importers read.
  it('a UTF-8 BOM before JSON, delivered one byte at a time, is dropped', async () => {
    const json = '\ufeff{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""}}],"samples":[1],"timeDeltas":[1]}';
    const p = await load('x.cpuprofile', json, 1);
    expect(p.format).toBe('cpuprofile');
    expect(p.meta.warnings).toEqual([]);
  });

  it('UTF-16 without a byte-order mark, delivered one byte at a time, is read as UTF-16', async () => {
    const text = 'a;b 1\nc 2\n';
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) utf16[2 * i] = text.charCodeAt(i);
    expect(collapse(await load('x.folded', utf16, 1)).sort()).toEqual(['a;b 1', 'c 2']);
  });
});
