import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLaunchArgs, samplePaths, secondInstancePaths } from './launch-args';

const cwd = '/home/me/profiles';
const dev = { defaultApp: true, cwd };
const packaged = { defaultApp: false, cwd };

describe('parseLaunchArgs', () => {
  it('skips the app path in development (`electron . files`)', () => {
    expect(parseLaunchArgs(['/x/electron', '.', 'a.cpuprofile', '/abs/b.cpuprofile'], dev)).toEqual([
      join(cwd, 'a.cpuprofile'),
      '/abs/b.cpuprofile',
    ]);
    expect(parseLaunchArgs(['/x/electron', 'out/main/index.js', 'run.0x'], dev)).toEqual([join(cwd, 'run.0x')]);
  });

  it('takes every positional argument when packaged', () => {
    expect(parseLaunchArgs(['/opt/Flamelens/flamelens', 'a.cpuprofile', 'b/'], packaged)).toEqual([
      join(cwd, 'a.cpuprofile'),
      join(cwd, 'b'),
    ]);
  });

  it('ignores Chromium, Electron and macOS switches wherever they are', () => {
    const argv = [
      '/x/electron',
      '--inspect=9229',
      '.',
      '--allow-file-access-from-files',
      'a.cpuprofile',
      '-psn_0_12345',
      '--original-process-start-time=13370000000000000',
    ];
    expect(parseLaunchArgs(argv, dev)).toEqual([join(cwd, 'a.cpuprofile')]);
  });

  it('treats everything after -- as a path', () => {
    expect(parseLaunchArgs(['/x/electron', '.', '--', '-odd-name.cpuprofile'], dev)).toEqual([join(cwd, '-odd-name.cpuprofile')]);
  });

  it('gives nothing when nothing was named', () => {
    expect(parseLaunchArgs(['/x/electron', '.'], dev)).toEqual([]);
    expect(parseLaunchArgs(['/opt/Flamelens/flamelens'], packaged)).toEqual([]);
    expect(parseLaunchArgs(['/x/electron'], dev)).toEqual([]);
  });
});

describe('secondInstancePaths', () => {
  it('prefers the list the second instance sent', () => {
    expect(secondInstancePaths({ flamelensPaths: ['/a/x.cpuprofile'] }, ['/x/electron', '.', 'other'], dev)).toEqual(['/a/x.cpuprofile']);
  });

  it('falls back to its argv, resolved against its own working directory', () => {
    expect(secondInstancePaths(undefined, ['/x/electron', '.', 'y.cpuprofile'], { defaultApp: true, cwd: '/w' })).toEqual([
      '/w/y.cpuprofile',
    ]);
    expect(secondInstancePaths({ flamelensPaths: ['relative'] }, ['/x/flamelens', 'z'], { defaultApp: false, cwd: '/w' })).toEqual([
      '/w/z',
    ]);
  });
});

describe('samplePaths', () => {
  it('names the bundled comparison', () => {
    expect(samplePaths('/app')).toEqual(['/app/assets/samples/baseline.cpuprofile', '/app/assets/samples/dd-trace.cpuprofile']);
  });
});
