import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importProfile } from '../import/import-profile';
import type { Profile } from '../model/types';
import { SAMPLES, fileSource, folderSource } from '../../test/support/files';
import { folded } from '../../test/support/folded';
import { stacks } from '../../test/support/stacks';
import { Status, diffProfiles } from './diff';
import { indexDiff } from './diff-query';
import { entryMatch, entryScript, matchedKey, withEntryMatched } from './entry-script';

/** Node's start-up and module loader down to the main module, as `--cpu-prof` records them. */
const START = 'run_main_module@node:internal/main/run_main_module;Module._compile@node:internal/modules/cjs/loader';
const REQUIRE = 'require@node:internal/modules/helpers;Module._compile@node:internal/modules/cjs/loader';

describe('entry script of a run', () => {
  it('is the application file nearest the root when no module loader is recorded', () => {
    expect(entryScript(stacks('main@/srv/app/server-base.js;a@/srv/app/lib.js 3\nmain@/srv/app/server-base.js 1'))).toBe(
      'app/server-base.js',
    );
  });

  it("prefers the module the loader ran nearest the root over application code called from Node's event loop", () => {
    const p = stacks(
      [
        `${START};(anonymous)@/srv/app/server-otel.js;${REQUIRE};(anonymous)@/srv/app/server.js 2`,
        // a request handler reached through Node core alone, shallower and much heavier
        'processTicksAndRejections@node:internal/process/task_queues;handler@/srv/app/server.js 50',
      ].join('\n'),
    );
    expect(entryScript(p)).toBe('app/server-otel.js');
  });

  it('leaves out application code called by a dependency, and takes the heaviest of equally deep files', () => {
    const p = stacks(
      [
        'listOnTimeout@node:internal/timers;tick@/srv/app/metrics.js 1',
        'listOnTimeout@node:internal/timers;main@/srv/app/server.js 4',
        'run@/srv/app/node_modules/fastify/fastify.js;top@/srv/app/top.js 40',
      ].join('\n'),
    );
    expect(entryScript(p)).toBe('app/server.js');
  });

  it('is undefined for frames without files (folded stacks)', async () => {
    expect(entryScript(await folded('server-base.js:main;a 3'))).toBeUndefined();
  });
});

describe('matching entry scripts', () => {
  const base = stacks('main@/srv/app/server-base.js;work@/srv/app/lib.js 3\nmain@/srv/app/server-base.js 1', 'base');
  const run = stacks(
    'main@/srv/app/server-otel.js;work@/srv/app/lib.js 5\nmain@/srv/app/server-otel.js;otel@/srv/app/node_modules/otel/x.js 2',
    'otel',
  );

  it('pairs two different entry files neither run has otherwise', () => {
    expect(entryMatch(base, run)).toEqual({ baseline: 'app/server-base.js', run: 'app/server-otel.js' });
    expect(entryMatch(base, base)).toBeUndefined();
    // the run's entry file is a file of the baseline too: it is that file, not the entry script
    const both = stacks('main@/srv/app/server-base.js;work@/srv/app/server-otel.js 3');
    expect(entryMatch(both, run)).toBeUndefined();
    expect(entryMatch(base, stacks('handler@/srv/app/lib.js 3'))).toBeUndefined();
  });

  it("keys the run's entry-script frames as the baseline's, and nothing else", () => {
    const m = entryMatch(base, run)!;
    const matched = withEntryMatched(run, m);
    expect(matched.frames.key).toEqual(run.frames.key.map((k) => k.replace('app/server-otel.js', 'app/server-base.js')));
    expect(matched.frames.name).toBe(run.frames.name);
    expect(matched.tree).toBe(run.tree);
    expect(matchedKey('main\tapp/lib.js', m)).toBe('main\tapp/lib.js');
  });

  it('makes the entry script one frame in the diff by default, and two without', () => {
    const d = diffProfiles(base, run);
    expect(d.entry).toEqual({ baseline: 'app/server-base.js', run: 'app/server-otel.js' });
    const main = d.functions.filter((f) => f.name === 'main');
    expect(main.map((f) => [f.status, f.baseline.total, f.run.total, f.file])).toEqual([['changed', 4, 7, '/srv/app/server-otel.js']]);
    const work = d.functions.find((f) => f.name === 'work')!;
    expect([work.status, work.delta.total]).toEqual(['changed', 2]);
    // zoom and colour find the run's own key path through the matched one
    const index = indexDiff(d);
    const own = index.path([run.frames.key[0]!, 'work\tapp/lib.js']);
    expect(own).toBe(index.path(['main\tapp/server-base.js', 'work\tapp/lib.js']));
    expect(d.tree.status[own]).toBe(1);

    const apart = diffProfiles(base, run, { matchEntry: false });
    expect(apart.entry).toBeUndefined();
    expect(apart.functions.filter((f) => f.name === 'main').map((f) => [f.status, f.file])).toEqual([
      ['new', '/srv/app/server-otel.js'],
      ['removed', '/srv/app/server-base.js'],
    ]);
    const apartIndex = indexDiff(apart);
    // work's path under the run's own entry script is not the baseline's: work moved there
    expect(apart.tree.status[apartIndex.path([run.frames.key[0]!, 'work\tapp/lib.js'])]).toBe(Status.Moved);
  });
});

describe('entry scripts of the real samples', () => {
  const dir = (v: string) => join(SAMPLES, v);
  const cpu = (v: string) =>
    importProfile(
      fileSource(
        join(
          dir(v),
          readdirSync(dir(v)).find((f) => f.endsWith('.cpuprofile'))!,
        ),
      ),
    );

  it('are server-baseline.js and server-ddtrace.js in the .cpuprofile and 0x captures', async () => {
    const captures: [string, () => Promise<Profile>][] = [
      ['cpuprofile', () => cpu('baseline')],
      ['0x', () => importProfile(folderSource(join(dir('baseline'), '0x')))],
    ];
    for (const [, open] of captures) expect(entryScript(await open())).toBe('app/server-baseline.js');
    expect(entryScript(await cpu('ddtrace'))).toBe('app/server-ddtrace.js');
    expect(entryScript(await importProfile(folderSource(join(dir('ddtrace'), '0x'))))).toBe('app/server-ddtrace.js');
  });

  it('are not in perf captures started after start-up: the handler, called by Fastify, is not one', async () => {
    const perf = (v: string) => importProfile(fileSource(join(dir(v), 'perf.F999.script.txt.gz')));
    const [b, r] = [await perf('baseline'), await perf('ddtrace')];
    expect(b.frames.key).toContain('(anonymous)\tapp/server.js');
    expect(entryScript(b)).toBeUndefined();
    expect(entryScript(r)).toBeUndefined();
    expect(diffProfiles(b, r).entry).toBeUndefined();
  });

  it('are one frame in the diff: neither new nor removed', async () => {
    const [b, r] = [await cpu('baseline'), await cpu('ddtrace')];
    const d = diffProfiles(b, r, { excludeIdle: true });
    expect(d.entry).toEqual({ baseline: 'app/server-baseline.js', run: 'app/server-ddtrace.js' });
    const entry = d.functions.filter((f) => /server-(baseline|ddtrace)\.js$/.test(f.file));
    expect(entry.length).toBeGreaterThan(0);
    for (const f of entry) expect(f.status === 'new' || f.status === 'removed').toBe(false);
    const apart = diffProfiles(b, r, { excludeIdle: true, matchEntry: false });
    expect(apart.functions.filter((f) => /server-(baseline|ddtrace)\.js$/.test(f.file)).map((f) => f.status)).toEqual(
      expect.arrayContaining(['new', 'removed']),
    );
  });
});
