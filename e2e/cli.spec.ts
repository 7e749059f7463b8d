/**
 * The built command line: `bin/flamelens.mjs` (what `npx flamelens` runs) and the bundle itself,
 * `node out/cli/flamelens.js`, are the same program, with the same output and exit status.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const BASE = 'fixtures/samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile';
const RUN = 'fixtures/samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile';

const flamelens = (entry: string, args: string[]) => {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('bin/flamelens.mjs and node out/cli/flamelens.js run the same command line', () => {
  const lines = [['--help'], ['collapse', BASE], ['diff', BASE, RUN, '--json'], ['diff', BASE, RUN, '--fail-above', '1'], ['nope']];
  for (const args of lines) {
    const bin = flamelens('bin/flamelens.mjs', args);
    expect(flamelens('out/cli/flamelens.js', args), args.join(' ')).toEqual(bin);
  }
  const help = flamelens('out/cli/flamelens.js', ['--help']);
  expect(help.status).toBe(0);
  for (const c of ['open', 'collapse', 'info', 'diff', 'heatmap', 'heap', 'stats', 'record'])
    expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
  const collapsed = flamelens('out/cli/flamelens.js', ['collapse', BASE]);
  expect(collapsed.status).toBe(0);
  expect(collapsed.stdout).toMatch(/^\S.* \d+\n/);
  const gate = flamelens('out/cli/flamelens.js', ['diff', BASE, RUN, '--fail-above', '1']);
  expect(gate.status).toBe(2);
  expect(gate.stderr).toMatch(/more than --fail-above 1%\n$/);
  expect(flamelens('out/cli/flamelens.js', ['nope'])).toEqual({
    status: 1,
    stdout: '',
    stderr: 'flamelens: unknown command "nope". Commands: open, collapse, info, diff, heatmap, heap, stats, record (flamelens --help)\n',
  });
});

test('collapse into a program that stops reading stops quietly, and into a file writes every line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-cli-'));
  try {
    // ~12 MB of output, several pieces: a reader that closes after the first bytes breaks the pipe mid-write
    const lines = Array.from({ length: 120_000 }, (_, i) => `main;handler${i % 50};work${i} ${1 + (i % 9)}`);
    const file = join(dir, 'stacks.folded');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const child = spawn(process.execPath, ['out/cli/flamelens.js', 'collapse', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(stderr).toBe('');
    expect(status).toBe(0);

    const out = join(dir, 'out.folded');
    const fd = openSync(out, 'w');
    const r = spawnSync(process.execPath, ['out/cli/flamelens.js', 'collapse', file], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    expect(r.status).toBe(0);
    const written = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(lines.length);
    expect(new Set(written)).toEqual(new Set(lines));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
