/**
 * The built command line: `bin/flamelens.mjs` (what `npx flamelens` runs) and the bundle itself,
 * `node out/cli/flamelens.js`, are the same program, with the same output and exit status.
 */
import { spawnSync } from 'node:child_process';
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
