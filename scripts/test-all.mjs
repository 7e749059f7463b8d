#!/usr/bin/env node
// `npm test`: every check the project has, in order — type-check, lint, unit tests, build,
// end-to-end tests — then one summary line "N passed, N failed, N skipped" counting tests (and
// any check that failed). Exit status 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n── ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  const ok = r.status === 0;
  console.log(`── ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) failedSteps.push(name);
  return ok;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

mkdirSync('test-results', { recursive: true });
for (const f of ['test-results/unit.json', 'test-results/e2e.json']) rmSync(f, { force: true });

const bin = (name) => `node_modules/.bin/${name}`;
step('type-check', 'npm', ['run', '--silent', 'typecheck']);
step('lint', bin('eslint'), ['.', '--max-warnings=0']);

step('unit tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile=test-results/unit.json']);
const unit = readJson('test-results/unit.json');
if (unit) {
  results.passed += unit.numPassedTests;
  results.failed += unit.numFailedTests;
  results.skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
} else if (failedSteps.includes('unit tests')) results.failed++;

const built = step('build', 'npm', ['run', '--silent', 'build']);
if (built) {
  step('end-to-end tests', bin('playwright'), ['test']);
  const e2e = readJson('test-results/e2e.json');
  if (e2e?.stats) {
    results.passed += e2e.stats.expected;
    results.failed += e2e.stats.unexpected;
    results.skipped += e2e.stats.skipped;
    const flaky = e2e.stats.flaky ?? 0;
    results.passed += flaky;
    if (flaky) console.log(`(${flaky} end-to-end test(s) passed only on retry)`);
  } else if (failedSteps.includes('end-to-end tests')) results.failed++;
} else console.log('── end-to-end tests: not run (the build failed)');

for (const s of ['type-check', 'lint', 'build']) if (failedSteps.includes(s)) results.failed++;
console.log(`\nsteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
if (!existsSync('docs/screenshot.png')) console.log('note: docs/screenshot.png was not written');
console.log(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(failedSteps.length || results.failed ? 1 : 0);
