import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fixturePath } from '../../test/support/files';
import { main } from './index';
import { type Captured, capture } from '../../test/support/cli-output';

vi.mock('../server/open', () => ({ openInBrowser: vi.fn() }));

function run(...args: string[]): Promise<Captured> {
  return capture((out) => main(args, out));
}

afterEach(() => vi.restoreAllMocks());

const collapsed = (f: string) => readFileSync(fixturePath('corpus/FlameGraph/generated-41fee1f/default', f), 'utf8');

describe('flamelens collapse', () => {
  it('prints exactly what stackcollapse-perf.pl prints for perf script', async () => {
    const r = await run('collapse', fixturePath('corpus/FlameGraph/test/perf-numa-stacks-01.txt'));
    expect(r.code).toBe(0);
    const expected = collapsed('perf-numa-stacks-01-collapsed-default.txt');
    // stackcollapse-perf.pl drops the file's last sample (no blank line after it); Flamelens keeps it.
    const exp = new Map(
      expected
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
    );
    const got = new Map(
      r.out
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
    );
    let extra = 0;
    for (const [k, v] of got) extra += v - (exp.get(k) ?? 0);
    expect(extra).toBe(1);
    for (const [k, v] of exp) expect(got.get(k)).toBeGreaterThanOrEqual(v);
  });

  it('is the identity on folded input', async () => {
    const f = fixturePath('corpus/FlameGraph/generated-41fee1f/default/perf-java-stacks-01-collapsed-default.txt');
    const r = await run('collapse', f);
    expect(r.out).toBe(readFileSync(f, 'utf8'));
  });

  it('writes a large collapsed file back as it was, a piece at a time', async () => {
    // 60,000 stacks written once each, sorted, as a collapser writes them: over 4 MB of output.
    // Labels that prefix each other (fn1, fn10, fn1.x) put some stacks after longer ones.
    const lines: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const frames = ['main', `fn${i % 97}`, i % 3 === 0 ? `fn${i % 13}.x` : `fn${i % 13}`, `leaf${i}_${'x'.repeat(40)}`];
      lines.push(`${frames.slice(0, 2 + (i % 3)).join(';')};${frames[3]} ${1 + (i % 7)}`);
    }
    lines.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-collapse-'));
    try {
      const file = join(dir, 'stacks.folded');
      await writeFile(file, `${lines.join('\n')}\n`);
      const pieces: Uint8Array[] = [];
      const code = await main(['collapse', file], {
        stdout: {
          write: (t: string | Uint8Array, done?: () => void) => {
            pieces.push(typeof t === 'string' ? Buffer.from(t) : t.slice());
            done?.();
          },
        },
        stderr: { write: () => true },
      });
      expect(code).toBe(0);
      expect(Buffer.concat(pieces).toString()).toBe(`${lines.join('\n')}\n`);
      expect(pieces.length).toBeGreaterThan(3);
      expect(Math.max(...pieces.map((x) => x.length))).toBeLessThan(1.1 * 2 ** 20);

      // a sink that holds what it is given, as given (a pipe to a slow reader), and passes it on
      // later: the next piece comes only then, and the memory it held is not written before
      const passed: Uint8Array[] = [];
      let holding: Uint8Array | undefined;
      const slow = {
        write: (t: string | Uint8Array, done?: () => void) => {
          expect(holding).toBeUndefined();
          holding = typeof t === 'string' ? Buffer.from(t) : t;
          setTimeout(() => {
            passed.push(holding!.slice());
            holding = undefined;
            done?.();
          }, 1);
        },
      };
      expect(await main(['collapse', file], { stdout: slow, stderr: { write: () => true } })).toBe(0);
      expect(Buffer.concat(passed).toString()).toBe(`${lines.join('\n')}\n`);
      expect(passed.length).toBe(pieces.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('labels V8 frames NAME FILE:LINE:COLUMN, sorted, integer counts', async () => {
    const r = await run('collapse', fixturePath('samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile'));
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect([...lines].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))).toEqual(lines);
    expect(lines.every((l) => /^\S.* \d+$/.test(l))).toBe(true);
    expect(r.out).toMatch(/(^|;)processTicksAndRejections node:internal\/process\/task_queues:\d+:\d+(;| )/m);
    expect(r.out).not.toMatch(/\(root\)/);
  });

  it('fails with one line naming the file for unknown formats', async () => {
    const r = await run('collapse', fixturePath('corpus/FlameGraph/example-dtrace-stacks.txt'));
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/example-dtrace-stacks\.txt.*Supported: /);
    expect(r.out).toBe('');
  });

  it('fails clearly for a missing file and bad options', async () => {
    expect((await run('collapse', '/nope/x.cpuprofile')).err).toMatch(/\/nope\/x\.cpuprofile: no such file/);
    expect((await run('collapse', 'a', '--weight', 'kg')).err).toMatch(/--weight must be samples, time or bytes/);
    expect((await run('collapse')).code).toBe(1);
    expect((await run('frobnicate')).err).toMatch(/unknown command "frobnicate"/);
  });

  it('reads standard input for -, as it reads the file', async () => {
    const file = fixturePath('corpus/FlameGraph/test/perf-numa-stacks-01.txt');
    const want = (await run('collapse', file)).out;
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([readFileSync(file)]) as typeof process.stdin);
    const r = await run('collapse', '-');
    expect(r.code).toBe(0);
    expect(r.out).toBe(want);
    // errors name it
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([Buffer.from('not a profile\n')]) as typeof process.stdin);
    expect((await run('collapse', '-')).err).toMatch(/^flamelens: stdin: .*Supported: /);
    // once
    const twice = await run('diff', '-', '-');
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/standard input can be read only once/);
  });

  it.skipIf(process.platform === 'win32')('reads a pipe as it comes (<(perf script))', async () => {
    const file = fixturePath('corpus/FlameGraph/test/perf-numa-stacks-01.txt');
    const want = (await run('collapse', file)).out;
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-fifo-'));
    try {
      const fifo = join(dir, 'perf.fifo');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      // the writer waits for the reader to open the pipe
      const writing = writeFile(fifo, readFileSync(file));
      const r = await run('collapse', fifo);
      await writing;
      expect(r.err).toBe('');
      expect(r.out).toBe(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('flamelens --help', () => {
  it('lists the commands that exist', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    for (const c of ['open', 'collapse', 'diff', 'heatmap', 'stats']) expect(r.out).toMatch(new RegExp(`^  ${c} `, 'm'));
  });
});
