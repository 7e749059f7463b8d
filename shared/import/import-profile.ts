/**
 * The one entry point that turns a dropped, opened or named file into a Profile: open the
 * stream (gzip, encodings), pick the importer from content (the name is only a hint), parse.
 * Used by the import worker in the app and by the command line.
 */
import type { Profile } from '../model/types';
import { type BudgetLimits, budgeted } from './build-budget';
import { ImportError } from './errors';
import type { ImportOptions, Importer } from './importer';
import { IMPORTERS } from './registry';
import { type ByteSource, type ImportSource, type OpenOptions, type OpenedSource, isFolder, openSource } from './io/source';

export interface ImportRequest extends OpenOptions {
  options?: ImportOptions;
  /** for tests: a different importer list */
  importers?: Importer[];
  /** for tests: what an import may build for the bytes it reads (default: model/budget.ts) */
  limits?: BudgetLimits;
}

export function supportedFormatsText(importers: Importer[] = IMPORTERS): string {
  return importers.map((i) => i.label).join(', ');
}

/** The importer whose content test accepts `head`, in registry order. */
export function detectFormat(head: string, fileName: string, importers: Importer[] = IMPORTERS): Importer | undefined {
  return importers.find((imp) => imp.sniff(head, fileName));
}

function looksBinary(head: string): boolean {
  const sample = head.slice(0, 4096);
  if (sample.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0 || c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13)) odd++;
  }
  return odd / sample.length > 0.05;
}

function isAbort(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}

/**
 * The words of a stream error. Node 22's `DecompressionStream` throws a `TypeError` with no
 * message of its own and zlib's error (`unexpected end of file`) as its cause.
 */
function reason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (e.message) return e.message;
  return e.cause instanceof Error ? e.cause.message : '';
}

/**
 * What a failure of the byte stream itself (not of a parser) means to a person: almost always a
 * damaged or cut-off gzip file. Node's zlib says `unexpected end of file` or `invalid bit length
 * repeat`, browsers a bare TypeError; either way it is about the file, so it becomes an
 * `ImportError` naming it and, when known, how far the content could be read.
 */
function streamError(e: unknown, file: string, gzipped: boolean, offset?: number): unknown {
  if (e instanceof ImportError || isAbort(e)) return e;
  const why = reason(e);
  const said = why ? ` (${why})` : '';
  const message = gzipped
    ? `the gzip data is damaged or cut off${offset === undefined ? '' : ` after ${offset} bytes of content`}${said}; the file cannot be decompressed`
    : `the file could not be read${said}`;
  return new ImportError(offset === undefined ? { file, message } : { file, offset, message });
}

/** The opened source, with errors of the stream turned into `ImportError`s (see `streamError`). */
async function open(file: ByteSource, req: ImportRequest, name: string): Promise<OpenedSource> {
  // The first two raw bytes tell a damaged gzip file from a file that could not be read.
  const magic: number[] = [];
  // (pieces taken as they are asked for, none ahead: a reader that goes on synchronously leaves
  // no reads behind)
  const peeked: ByteSource = {
    ...file,
    stream: () => {
      const inner = file.stream().getReader();
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const { value, done } = await inner.read();
            if (done) return controller.close();
            for (let i = 0; magic.length < 2 && i < value.length; i++) magic.push(value[i]!);
            controller.enqueue(value);
          },
          cancel: (reason) => inner.cancel(reason),
        },
        { highWaterMark: 0 },
      );
    },
  };
  let source: OpenedSource;
  try {
    source = await openSource(peeked, req);
  } catch (e) {
    // Damage met while the first 64 KiB are read: where exactly is not known.
    throw streamError(e, name, magic[0] === 0x1f && magic[1] === 0x8b);
  }
  const chunks = source.chunks.bind(source);
  const guarded: OpenedSource = { ...source, chunks: () => guardChunks(chunks(), name, source.gzipped) };
  const readInto = source.readInto;
  if (readInto) {
    let offset = 0;
    guarded.readInto = (into) => {
      try {
        const n = readInto(into);
        offset += n;
        return n;
      } catch (e) {
        throw streamError(e, name, false, offset);
      }
    };
  }
  return guarded;
}

async function* guardChunks(chunks: AsyncIterable<Uint8Array>, file: string, gzipped: boolean): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  let offset = 0;
  let done = false;
  try {
    for (;;) {
      let r: IteratorResult<Uint8Array>;
      try {
        r = await it.next();
      } catch (e) {
        done = true;
        throw streamError(e, file, gzipped, offset);
      }
      if (r.done) {
        done = true;
        return;
      }
      offset += r.value.length;
      yield r.value;
    }
  } finally {
    // The parser stopped early (an error of its own): done with the chunks (`importProfile`
    // lets the file go).
    if (!done) await it.return?.();
  }
}

export async function importProfile(src: ImportSource, req: ImportRequest = {}): Promise<Profile> {
  const importers = req.importers ?? IMPORTERS;
  const options = req.options ?? {};
  if (isFolder(src)) {
    const names = src.files.map((f) => f.name);
    for (const imp of importers) {
      const pick = imp.pickFromFolder?.(names);
      if (pick === undefined) continue;
      const file = src.files.find((f) => f.name === pick)!;
      const source = await open(file, req, `${src.name}/${file.name}`);
      try {
        const profile = await parseWithin(imp, `${src.name}/${file.name}`, source, options, req.limits);
        profile.name = src.name;
        return profile;
      } finally {
        source.close();
      }
    }
    throw new ImportError({
      file: src.name,
      message: `this folder holds no profile Flamelens can read (looked for a 0x output folder). Drop a single file instead; supported: ${supportedFormatsText(importers)}`,
    });
  }
  const source = await open(src, req, src.name);
  try {
    return await parseOpened(source, src.name, importers, options, req.limits);
  } finally {
    // however the import ended, the file is let go (a stream the parser did not read to its end
    // would keep it open until the collector closes it, with a warning)
    source.close();
  }
}

/** Tells the format of an opened file and parses it. */
async function parseOpened(
  source: OpenedSource,
  name: string,
  importers: Importer[],
  options: ImportOptions,
  limits?: BudgetLimits,
): Promise<Profile> {
  if (source.head.trim() === '') throw new ImportError({ file: name, message: 'the file is empty' });
  const imp = detectFormat(source.head, name, importers);
  if (!imp) {
    const what = looksBinary(source.head)
      ? 'a binary file that is not a known profile format'
      : 'not a profile format Flamelens recognises';
    throw new ImportError({ file: name, message: `${what}. Supported: ${supportedFormatsText(importers)}` });
  }
  return parseWithin(imp, name, source, options, limits);
}

/**
 * Parses with a budget of what the import may build for the bytes it reads (model/budget.ts). An
 * allocation the system refuses anywhere in the import (not only in the builders) ends it as the
 * budget's refusal does: one line naming the file, not a crash.
 */
async function parseWithin(
  imp: Importer,
  file: string,
  opened: OpenedSource,
  options: ImportOptions,
  limits?: BudgetLimits,
): Promise<Profile> {
  const { source, budget } = budgeted(opened, file, limits);
  try {
    return await imp.parse({ file, source, options, budget });
  } catch (e) {
    if (e instanceof RangeError && REFUSED_ALLOCATION.test(e.message))
      throw new ImportError({
        file,
        message: `the profile needs more memory than this process can have (${e.message}; ${budget.charged} bytes built)`,
      });
    throw e;
  }
}

/** What V8 says when it cannot make an array or string that large (not a stack overflow: that is a bug). */
const REFUSED_ALLOCATION = /^(Array buffer allocation failed|Invalid (typed array|array|string) length)/;
