/**
 * perf script importer against reference output: the FlameGraph, speedscope and FlameScope
 * corpus inputs, each collapsed and compared with what stackcollapse-perf.pl printed for it
 * (fixtures/corpus/MANIFEST.md), and the event types and units those inputs carry. Variants,
 * real Node.js runs, detection and errors are in perf-script-variants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { collapse } from '../../../model/collapse';
import { checkProfile } from '../../../model/integrity';
import { sampleWeights } from '../../../model/sample-weights';
import type { Profile } from '../../../model/types';
import { fileSource, fixturePath, readText } from '../../../../test/support/files';
import { importProfile } from '../../import-profile';
import type { ImportOptions } from '../../importer';
import { timeColumn } from '../../../model/sample-times';

const flamegraph = (f: string) => fixturePath('corpus/FlameGraph', f);
const generated = (f: string) => fixturePath('corpus/FlameGraph/generated-41fee1f/default', f);
const speedscope = (f: string) => fixturePath('corpus/speedscope/sample/profiles/linux-perf', f);
const flamescope = (f: string) => fixturePath('corpus/flamescope/examples', f);

function load(path: string, name?: string, options: ImportOptions = {}): Promise<Profile> {
  return importProfile(fileSource(path, name), { options });
}

/**
 * What stackcollapse-perf.pl prints for the profile: our folded output, less the last sample when
 * the file does not end with a blank line (the script only emits a sample when it meets one).
 */
function asStackcollapse(p: Profile, dropsLast: boolean): string {
  const w = p.tree.self.slice();
  if (dropsLast) {
    const s = p.samples!;
    w[s.node[s.length - 1]!]! -= sampleWeights(s, p.unit)[s.length - 1]!;
  }
  return collapse(p, w)
    .map((l) => `${l}\n`)
    .join('');
}

function endsWithBlankLine(body: string): boolean {
  return /\n\r?\n$/.test(body);
}

function lastWeight(p: Profile): number {
  return sampleWeights(p.samples!, p.unit)[p.samples!.length - 1]!;
}

describe('perf script: FlameGraph test inputs against stackcollapse-perf.pl (default options)', () => {
  // input, perf events of the kept type in the file, the script's total, whether it dropped the
  // last sample (the file does not end with a blank line) — see fixtures/corpus/MANIFEST.md.
  const cases: [string, number, number, boolean][] = [
    ['perf-cycles-instructions-01', 333, 333, false],
    ['perf-dd-stacks-01', 11, 101010100, true],
    ['perf-funcab-cmd-01', 169, 169, false],
    ['perf-funcab-pid-01', 228, 228, false],
    ['perf-iperf-stacks-pidtid-01', 201, 200, true],
    ['perf-java-faults-01', 23, 200, false],
    ['perf-java-stacks-01', 46, 45, true],
    ['perf-java-stacks-02', 2, 2, false],
    ['perf-js-stacks-01', 2, 2, false],
    ['perf-mirageos-stacks-01', 53, 52, true],
    ['perf-numa-stacks-01', 200, 199, true],
    ['perf-rust-Yamakaky-dcpu', 58, 6850637, false],
    ['perf-vertx-stacks-01', 286, 285, true],
  ];
  for (const [input, events, total, dropsLast] of cases) {
    it(`${input}: same stacks as the script`, async () => {
      const path = flamegraph(`test/${input}.txt`);
      expect(endsWithBlankLine(readText(path))).toBe(!dropsLast);
      const expected = readText(generated(`${input}-collapsed-default.txt`));
      for (const name of [`${input}.txt`, '']) {
        const p = await load(path, name);
        expect(p.format).toBe('perf-script');
        expect(checkProfile(p)).toEqual([]);
        expect(p.samples!.length).toBe(events);
        expect(p.tree.total[0]).toBe(total + (dropsLast ? lastWeight(p) : 0));
        expect(asStackcollapse(p, dropsLast)).toBe(expected);
      }
    });
  }

  it('example-perf-stacks.txt.gz (gzip, perf 3.13 header): 1,315 samples as in example-perf.svg', async () => {
    const expected = readText(generated('example-perf-stacks-collapsed-default.txt'));
    for (const name of ['example-perf-stacks.txt.gz', '']) {
      const p = await load(flamegraph('example-perf-stacks.txt.gz'), name);
      expect(checkProfile(p)).toEqual([]);
      expect(p.samples!.length).toBe(1315);
      expect(p.tree.total[0]).toBe(1315);
      expect(asStackcollapse(p, false)).toBe(expected);
    }
  });
});

describe('perf script: speedscope linux-perf samples', () => {
  const files = [
    'forks.linux-perf.txt',
    'one-sample.linux-perf.txt',
    'rust-mangled.linux-perf.txt',
    'simple-with-header.linux-perf.txt',
    'simple-with-pid.linux-perf.txt',
    'simple.linux-perf.txt',
    'system-wide.linux-perf.txt',
  ];
  for (const f of files) {
    it(`${f}: the stackcollapse-perf.pl result and speedscope's sample count`, async () => {
      const expected = JSON.parse(readText(speedscope(`${f}.expected.json`)));
      const reference = expected.expected_stackcollapse_perf;
      const dropsLast = !endsWithBlankLine(readText(speedscope(f)));
      for (const name of [f, '']) {
        const p = await load(speedscope(f), name);
        expect(checkProfile(p)).toEqual([]);
        expect(p.samples!.length).toBe(reference.perf_events_in_file);
        expect(p.tree.total[0]).toBe(reference.total + (dropsLast ? lastWeight(p) : 0));
        expect(asStackcollapse(p, dropsLast)).toBe(readText(speedscope(`${f}.stackcollapse-perf-default.txt`)));
      }
    });
  }

  it('keeps the single sample that stackcollapse-perf.pl drops (no blank line at the end)', async () => {
    const p = await load(speedscope('simple.linux-perf.txt'));
    // speedscope imports it as one sample too ("simple-terminat tid: 10", 5 frames).
    expect(collapse(p)).toEqual(['simple-terminat;[unknown];__libc_start_main;main;_Z5deltav;_Z4betav 1001001']);
    expect(p.unit).toBe('nanoseconds');
    expect(timeColumn(p.samples!)[0]).toBe(198792736893);
  });

  it('reads pid/tid headers into process and thread names', async () => {
    const p = await load(speedscope('simple-with-pid.linux-perf.txt'));
    // speedscope calls this profile "simple-terminat pid: 9 tid: 9"
    expect(p.meta.processNames).toEqual({ '9': 'simple-terminat' });
    expect(p.meta.threadNames).toEqual({ '9:9': 'simple-terminat' });
    expect(p.unit).toBe('samples');
  });
});

describe('perf script: FlameScope perf.test01', () => {
  it('keeps all 9 events, skips the cut-off frame line and reports both damaged lines', async () => {
    const facts = JSON.parse(readText(flamescope('perf.test01.expected.json')));
    const p = await load(flamescope('perf.test01'));
    expect(checkProfile(p)).toEqual([]);
    expect(p.samples!.length).toBe(facts.facts.events);
    // stackcollapse-perf.pl: total 8, the event at EOF (no blank line after it) dropped.
    expect(p.tree.total[0]).toBe(facts.expected_stackcollapse_perf.total + 1);
    expect(asStackcollapse(p, true)).toBe(readText(flamescope('perf.test01.stackcollapse-perf-default.txt')));
    expect(p.meta.warnings).toEqual([
      'skipped 1 line(s) that are neither a sample header nor a frame, first at line 122: "\t    7fa4c73bc184 start_thread (/lib/x86_64-linux-gnu"',
      '1 frame line(s) had stray text after the "(dso)" column, first at line 176; their frames were kept',
    ]);
    expect(p.meta.startTime).toBe(facts.facts.first_ts * 1e6);
    expect(p.meta.endTime).toBe(5117999999);
    // The java leaf frames name their own time: STACK-2_at_time_10s_and_offset_200ms.
    const t = timeColumn(p.samples!);
    expect([t[0], t[3], t[8]].map((x) => (x! - t[0]!) / 1e6)).toEqual([0, 10.1, 41.899999]);
  });
});

describe('perf script: event types and units', () => {
  const cyclesInstructions = flamegraph('test/perf-cycles-instructions-01.txt');

  it('keeps the first event type only and names the others', async () => {
    const p = await load(cyclesInstructions);
    expect(p.meta.eventType).toBe('instructions');
    expect(p.meta.otherEventTypes).toEqual(['cycles']);
    expect(p.samples!.length).toBe(333);
    expect(p.meta.warnings).toEqual([
      'kept only "instructions" samples; left out 111 sample(s) of cycles (choose another event in the import options)',
    ]);
  });

  it('keeps the event named by the perfEvent option instead', async () => {
    const p = await load(cyclesInstructions, undefined, { perfEvent: 'cycles' });
    expect(checkProfile(p)).toEqual([]);
    expect(p.meta.eventType).toBe('cycles');
    expect(p.meta.otherEventTypes).toEqual(['instructions']);
    expect(p.samples!.length).toBe(111);
    expect(p.unit).toBe('samples');
    expect(p.tree.total[0]).toBe(111);
    // The same processes as the instructions samples; only the weights differ.
    expect(new Set(collapse(p).map((l) => l.split(';')[0]))).toEqual(new Set(['cksum', 'noploop', 'swapper']));
  });

  it('matches an option without modifiers against an event with them', async () => {
    const p = await load(speedscope('rust-mangled.linux-perf.txt'), undefined, { perfEvent: 'task-clock' });
    expect(p.meta.eventType).toBe('task-clock:ppp');
    expect(p.samples!.length).toBe(96);
  });

  it('says which events the file has when the chosen one is not there', async () => {
    await expect(load(cyclesInstructions, undefined, { perfEvent: 'page-faults' })).rejects.toThrow(
      'no samples of event "page-faults"; this file has instructions (333 samples), cycles (111 samples)',
    );
  });

  it('weighs by the period: nanoseconds for clock events, event counts for others, samples without', async () => {
    const summary = async (f: string) => {
      const p = await load(flamegraph(`test/${f}`));
      return [p.meta.eventType, p.unit, p.meta.sampleInterval];
    };
    expect(await summary('perf-dd-stacks-01.txt')).toEqual(['cpu-clock', 'nanoseconds', 10101.01]);
    expect(await summary('perf-java-faults-01.txt')).toEqual(['page-faults', 'events', undefined]);
    expect(await summary('perf-rust-Yamakaky-dcpu.txt')).toEqual(['cycles:u', 'events', undefined]);
    expect(await summary('perf-funcab-cmd-01.txt')).toEqual(['cpu-clock', 'samples', undefined]);
  });
});
