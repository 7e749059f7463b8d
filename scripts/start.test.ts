import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openArgs, staleReason } from './start.mjs';

describe('openArgs', () => {
  it('makes paths absolute against the folder npm start was run from, keeps options', () => {
    expect(openArgs(['a.cpuprofile', '/abs/b.0x', '--no-browser', '--port', '4000', '--', '-odd'], '/home/me')).toEqual([
      '/home/me/a.cpuprofile',
      '/abs/b.0x',
      '--no-browser',
      '--port',
      '4000',
      '/home/me/-odd',
    ]);
  });
});

describe('staleReason', () => {
  let dir: string;
  const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/flamelens.js'];
  const write = (rel: string, time: number) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), '');
    utimesSync(join(dir, rel), time, time);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'flamelens-start-'));
    write('package.json', 1000);
    write('electron/main/index.ts', 1000);
    write('renderer/src/main.tsx', 1000);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('builds when an output is missing', () => {
    expect(staleReason(dir)).toBe('out/main/index.js is missing');
  });

  it('builds when a source is newer than the oldest output, not for tests', () => {
    for (const o of outputs) write(o, 2000);
    expect(staleReason(dir)).toBeNull();
    write('electron/main/index.test.ts', 3000);
    expect(staleReason(dir)).toBeNull();
    write('shared/model/types.ts', 3000);
    expect(staleReason(dir)).toBe('the sources changed since the last build');
  });
});
