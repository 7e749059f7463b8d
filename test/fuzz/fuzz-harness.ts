/**
 * The fuzz harness: one input through `importProfile`, and the oracle that says whether what came
 * out is acceptable. Platform-free, like the rest of `shared/`; the Node test side
 * (`test/fuzz/fuzz-pool.ts`) runs `runCase` inside a worker thread, because a timer cannot
 * interrupt a synchronous loop in its own thread: the pool terminates a worker whose case runs past
 * the hard time limit, and a worker that runs out of memory dies alone. Both count as failures.
 *
 * What is acceptable, precisely (see `judge`):
 * - a Profile for which `checkProfile` finds nothing, named after the file; or
 * - an `ImportError` that names the file (its `file` is the input's name and its message starts
 *   with it), says something (a non-empty detail of sensible length), and gives a location — a
 *   1-based `line` or a byte `offset` within the (decompressed) content — unless its detail is one
 *   of the whole-file verdicts in `WHOLE_FILE_VERDICTS` ("the file is empty", "not a profile
 *   format…", "no samples…"), which are about no place in particular.
 * Anything else is a failure: any other thrown value (TypeError, RangeError — stack overflow
 * included —, SyntaxError, a plain Error), a profile that breaks the model's invariants, a case
 * past the time limit, a worker that crashed or ran out of memory.
 */
import { checkProfile } from '../../shared/model/integrity';
import type { FormatId, Profile } from '../../shared/model/types';
import { ImportError, type ImportErrorData } from '../../shared/import/errors';
import type { Importer } from '../../shared/import/importer';
import { importProfile } from '../../shared/import/import-profile';
import { FREE_INFLATED_BYTES, MAX_INFLATE_RATIO, withinBudget } from '../../shared/import/io/inflate-budget';
import { IMPORTERS } from '../../shared/import/registry';
import { bytesSource } from '../../shared/import/io/source';

/** An importer that accepts every file, so that `importProfile` hands it whatever it is given. */
function forced(id: FormatId): Importer {
  const imp = IMPORTERS.find((i) => i.id === id);
  if (!imp) throw new Error(`no importer ${id}`);
  return { ...imp, sniff: () => true };
}

/** One fuzzed file. */
export interface FuzzInput {
  /** file name handed to the importer (only a hint; fuzzed too) */
  name: string;
  /** the file's raw bytes */
  bytes: Uint8Array;
  /** size of the chunks the byte stream delivers (streaming parsers must not care) */
  chunk: number;
  /** how the input was made, for reports: `seed simple.json | truncate@120 | utf16le` */
  label: string;
  /**
   * when set, the importer with this id parses the file whatever its content test says, as happens
   * when the first 64 KiB look right and the rest does not
   */
  direct?: FormatId;
  /**
   * for gzip files made to inflate far: the content's true size. When gzip's budget
   * (`inflate-budget.ts`) cannot allow it from the file's size, the import must be refused, as
   * the content passes the budget or earlier: a profile read from it all is a failure.
   */
  inflates?: number;
}

export type Outcome =
  | {
      kind: 'profile';
      ms: number;
      /** what `checkProfile` and the harness found wrong; empty when sound */
      problems: string[];
      format: string;
      nodes: number;
      total: number;
      warnings: number;
    }
  | { kind: 'import-error'; ms: number; error: ImportErrorData; message: string }
  | { kind: 'thrown'; ms: number; name: string; message: string; stack: string }
  /** set by the pool: the case ran past the hard limit and its worker was terminated */
  | { kind: 'timeout'; ms: number }
  /** set by the pool: the worker died (out of memory, a fatal error) */
  | { kind: 'crashed'; ms: number; message: string };

/**
 * Error details that are verdicts on the whole file and so need no line or offset. Any other
 * detail must come with a location; a new location-less message fails the oracle until it is
 * either given a location or, being truly about the whole file, added here.
 */
export const WHOLE_FILE_VERDICTS: readonly RegExp[] = [
  // import-profile.ts: detection
  /^the file is empty$/,
  /^(a binary file that is not a known profile format|not a profile format Flamelens recognises)\. Supported: /,
  // the byte stream itself: damaged gzip met within the first 64 KiB, or a file that cannot be read
  /^the gzip data is damaged or cut off \(/,
  /^the file could not be read \(/,
  // cpuprofile / heapprofile: shape of the whole object
  /^not a V8 (CPU|heap) profile: /,
  // trace events
  /^(no "traceEvents" array in this JSON object|the trace holds no events \(the event array is empty\)); nothing to show$/,
  // perf script
  /^this is a binary perf\.data file; /,
  /^no samples of event "/,
  /^this is `perf report` output, /,
  /^no perf script samples found: /,
  // folded
  /^no "frame;frame count" lines found$/,
  // 0x
  /^this is a raw V8 log \(node --prof\)\. /,
  /^not 0x output: /,
  /^expected `node --prof-process --preprocess` JSON with a "code" array$/,
  /^expected a 0x ticks\.json array$/,
  /^the 0x profile holds no samples$/,
  // pprof
  /^not a readable pprof protocol buffer /,
  /^not a pprof profile: /,
  /^the profile has no samples with a .* value$/,
];

/** Longest acceptable error detail: a message is for a person, not a dump of the input. */
export const MAX_DETAIL = 2000;

/** Runs one input through the importer in this thread and describes the result. */
export async function runCase(input: FuzzInput): Promise<Outcome> {
  const t0 = Date.now();
  try {
    const src = bytesSource(input.name, input.bytes, input.chunk);
    const p: Profile = await (input.direct ? importProfile(src, { importers: [forced(input.direct)] }) : importProfile(src));
    const problems = checkProfile(p);
    if (p.name !== input.name) problems.push(`profile is named ${JSON.stringify(p.name)}, not after the file`);
    if (!Array.isArray(p.meta.warnings) || p.meta.warnings.some((w) => typeof w !== 'string' || w === ''))
      problems.push('meta.warnings holds something other than non-empty strings');
    return {
      kind: 'profile',
      ms: Date.now() - t0,
      problems,
      format: p.format,
      nodes: p.tree.length,
      total: p.tree.total[0] ?? NaN,
      warnings: p.meta.warnings.length,
    };
  } catch (e) {
    const ms = Date.now() - t0;
    if (e instanceof ImportError) return { kind: 'import-error', ms, error: e.toData(), message: e.message };
    if (e instanceof Error) return { kind: 'thrown', ms, name: e.name, message: e.message, stack: e.stack ?? '' };
    return { kind: 'thrown', ms, name: typeof e, message: String(e), stack: '' };
  }
}

/**
 * The most content a gzip file of `size` bytes may give before the budget stops it: what the
 * budget allows the whole file, one 16 KiB piece in hand and the 64 KiB chunk the decompressor
 * gives at most past it.
 */
function budgetFor(size: number): number {
  return Math.max(FREE_INFLATED_BYTES, MAX_INFLATE_RATIO * size) + 64 * 1024;
}

/** Upper bounds for an error's location that can be known from the raw bytes. */
function locationBounds(bytes: Uint8Array): { maxOffset: number; maxLine: number } | undefined {
  // Gzip hides the content's size; UTF-16 is re-encoded as UTF-8 (up to 1.5 times longer).
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return undefined;
  let newlines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) newlines++;
  // A UTF-16 code unit (2 bytes) becomes at most 3 UTF-8 bytes.
  return { maxOffset: Math.ceil(bytes.length * 1.5), maxLine: newlines + 1 };
}

/** The oracle: undefined when the outcome is acceptable, else what is wrong with it. */
export function judge(input: FuzzInput, out: Outcome): string | undefined {
  switch (out.kind) {
    case 'profile':
      if (input.inflates !== undefined && !withinBudget(input.inflates, input.bytes.length))
        return `a gzip file of ${input.bytes.length} bytes inflated to ${input.inflates} and was read whole, past the budget`;
      return out.problems.length === 0 ? undefined : `unsound profile: ${out.problems.slice(0, 5).join('; ')}`;
    case 'thrown':
      return `threw ${out.name} (not an ImportError): ${out.message}\n${out.stack}`;
    case 'timeout':
      return `no result within ${out.ms} ms (hang or runaway work); the worker was terminated`;
    case 'crashed':
      return `the worker died: ${out.message}`;
    case 'import-error': {
      const e = out.error;
      if (e.file !== input.name) return `ImportError names file ${JSON.stringify(e.file)}, expected ${JSON.stringify(input.name)}`;
      if (!out.message.startsWith(input.name)) return `ImportError message does not start with the file name: ${out.message}`;
      if (typeof e.message !== 'string' || e.message.trim() === '') return 'ImportError has no message';
      if (e.message.length > MAX_DETAIL) return `ImportError message is ${e.message.length} characters long`;
      const hasLine = e.line !== undefined;
      const hasOffset = e.offset !== undefined;
      if (hasLine && !(Number.isInteger(e.line) && e.line! >= 1)) return `ImportError line ${e.line} is not a 1-based line number`;
      if (hasOffset && !(Number.isInteger(e.offset) && e.offset! >= 0)) return `ImportError offset ${e.offset} is not a byte offset`;
      const bounds = locationBounds(input.bytes);
      if (bounds && hasLine && e.line! > bounds.maxLine) return `ImportError line ${e.line} is past the file's ${bounds.maxLine} lines`;
      if (bounds && hasOffset && e.offset! > bounds.maxOffset) return `ImportError offset ${e.offset} is past the file's end`;
      if (input.inflates !== undefined && hasOffset && e.offset! > budgetFor(input.bytes.length))
        return `ImportError at content byte ${e.offset}, past what the gzip budget allows ${input.bytes.length} bytes to inflate to`;
      if (!hasLine && !hasOffset && !WHOLE_FILE_VERDICTS.some((re) => re.test(e.message)))
        return `ImportError without a line or offset, and not a whole-file verdict: ${JSON.stringify(e.message)}`;
      return undefined;
    }
  }
}

/** A short description of an outcome for summaries: its kind and, for errors, the message's gist. */
export function outcomeClass(out: Outcome): string {
  switch (out.kind) {
    case 'profile':
      return `profile (${out.format})`;
    case 'import-error':
      return `error: ${gist(out.error.message)}`;
    default:
      return out.kind;
  }
}

/** The stable part of an error message: numbers, quoted text and lists taken out. */
export function gist(message: string): string {
  return message
    .replace(/\(.*$/s, '')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .replace(/[:;,.]\s.*$/s, '')
    .trim()
    .slice(0, 80);
}
