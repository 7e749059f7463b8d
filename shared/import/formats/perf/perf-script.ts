/**
 * Linux `perf script` text: one block per sample, a header line (`comm pid[/tid] [cpu] time:
 * period event:`) followed by the call chain leaf first, one `address symbol (dso)` line per
 * frame, and a blank line. Reference: Brendan Gregg's FlameGraph `stackcollapse-perf.pl` with
 * default options (https://github.com/brendangregg/FlameGraph), whose output `collapse()`
 * reproduces. The reader (perf-script-reader.ts) reads the lines, one by one or as records of the
 * line scanner: samples, event types and weights; this file turns what it read into a profile,
 * with its warnings. The format is told from others in perf-sniff.ts, headers are cut into
 * their columns in perf-header.ts, what each frame is called (its reference label, V8 function,
 * script and tier, dso naming) is worked out in perf-frames.ts, frame lines are cut into their
 * columns in perf-frame-line.ts, and what is remembered to read a long capture fast is in
 * perf-seen.ts. Where we part ways with the script, on purpose:
 * - the last sample is kept when the file does not end with a blank line (the script drops it);
 * - a header met before the blank line that should close the previous sample closes it (the
 *   script would glue both stacks together), which also reads `perf script` without `-g`;
 * - a header without a timestamp still yields its period and event (the script only looks for
 *   them after a `time:` column).
 */
import { finishProfile } from '../../../model/builders';
import type { RunMeta, Unit } from '../../../model/types';
import { ImportError } from '../../errors';
import type { Importer } from '../../importer';
import { forEachLineIn } from '../../io/lines';
import { scanRecords } from '../../io/line-scanner';
import { baseEvent } from './perf-header';
import { PerfScriptReader } from './perf-script-reader';
import { isPerfData, sniffPerfScript } from './perf-sniff';
import { withThreads } from './sample-threads';

export const perfScriptImporter: Importer = {
  id: 'perf-script',
  label: 'Linux perf script text ("perf script" after "perf record -g")',
  extensions: ['.perf', '.script', '.perf.txt', '.script.txt', '.data.txt'],
  sniff: sniffPerfScript,

  async parse({ file, source, options, budget }) {
    if (isPerfData(source.head))
      throw new ImportError({
        file,
        message: 'this is a binary perf.data file; turn it into text first with `perf script -i perf.data > perf.script.txt` and open that',
      });
    const wanted = options.perfEvent?.trim() || undefined;
    const reader = new PerfScriptReader(wanted, options.thread === 'all', budget);
    const scanned = await scanRecords(source, file, 'perf', (b) => reader.onBatch(b));
    const lines = scanned ?? (await forEachLineIn(source.chunks(), file, reader.lineReader));
    reader.finishSamples();
    if (reader.tree.sampleCount === 0) throw noSamples(file, reader, wanted, lines);
    const p = finishProfile({
      name: file,
      format: 'perf-script',
      kind: 'sampled',
      unit: unitOf(reader),
      frames: reader.frames,
      tree: reader.tree,
      meta: metaOf(reader, wanted),
    });
    return withThreads(file, p, reader.threads.keys, reader.threads.names, options.thread);
  },
};

/** Why a file of `lines` lines gave no sample. */
function noSamples(file: string, r: PerfScriptReader, wanted: string | undefined, lines: number): ImportError {
  let message: string;
  if (wanted !== undefined && r.skippedEvents.size > 0)
    message = `no samples of event "${wanted}"; this file has ${[...r.skippedEvents].map(([e, n]) => `${e} (${n} samples)`).join(', ')}`;
  else if (r.reportLike)
    message = 'this is `perf report` output, which has no call stacks per sample; open the output of `perf script` instead';
  else if (lines === 0) message = 'the file is empty';
  else
    message =
      'no perf script samples found: expected sample headers like "node 1234 [000] 12.345678: 1001001 cpu-clock:" each followed by frame lines like "\\tffffffff8100 func (dso)"; make the file with `perf script` from a `perf record -g` capture';
  return new ImportError(r.bad.count > 0 ? { file, line: r.bad.first, message } : { file, message });
}

/** Nanoseconds for clock events with periods, events for others with periods, else samples. */
function unitOf(r: PerfScriptReader): Unit {
  if (r.withPeriod === 0) return 'samples';
  return r.kept !== undefined && /^(cpu|task)-clock$/.test(baseEvent(r.kept)) ? 'nanoseconds' : 'events';
}

/** What was skipped or repaired while reading, in words. */
function warningsOf(r: PerfScriptReader, wanted: string | undefined): string[] {
  const warnings: string[] = [];
  if (r.bad.count > 0)
    warnings.push(
      `skipped ${r.bad.count} line(s) that are neither a sample header nor a frame, first at line ${r.bad.first}: "${r.bad.text}"`,
    );
  if (r.damaged.count > 0)
    warnings.push(
      `${r.damaged.count} frame line(s) had stray text after the "(dso)" column, first at line ${r.damaged.first}; their frames were kept`,
    );
  if (r.orphans > 0) warnings.push(`skipped ${r.orphans} frame line(s) before the first sample header`);
  if (r.hugePeriods.count > 0)
    warnings.push(`left out ${r.hugePeriods.count} sample(s) whose period is past 2^53, first at line ${r.hugePeriods.first}`);
  if (r.skippedEvents.size > 0) {
    const n = [...r.skippedEvents.values()].reduce((a, b) => a + b, 0);
    warnings.push(
      `kept only "${r.kept}" samples; left out ${n} sample(s) of ${[...r.skippedEvents.keys()].join(', ')} (choose another event in the import options)`,
    );
  }
  if (wanted !== undefined && r.kept === undefined)
    warnings.push(`the file names no event types, so the event "${wanted}" could not be chosen`);
  return warnings;
}

function metaOf(r: PerfScriptReader, wanted: string | undefined): RunMeta {
  const meta: RunMeta = { producer: 'perf script', warnings: warningsOf(r, wanted) };
  if (Number.isFinite(r.start)) {
    meta.startTime = r.start;
    meta.endTime = r.end;
  }
  // A clock event's period is its sampling interval, in nanoseconds.
  if (unitOf(r) === 'nanoseconds') meta.sampleInterval = r.periodSum[0]! / r.withPeriod / 1000;
  if (r.kept !== undefined) meta.eventType = r.kept;
  if (r.skippedEvents.size > 0) meta.otherEventTypes = [...r.skippedEvents.keys()];
  if (r.hasIds) {
    meta.processNames = r.processNames;
    meta.threadNames = r.threadNames;
  }
  return meta;
}
