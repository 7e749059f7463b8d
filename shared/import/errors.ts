/**
 * The one error type importers throw: it names the file and where in it things went wrong, in
 * words a person can act on. It crosses the worker boundary as plain data (`ImportErrorData`).
 */
export interface ImportErrorData {
  file: string;
  message: string;
  /** 1-based line for text formats */
  line?: number;
  /** byte offset into the (decompressed) file */
  offset?: number;
}

/** Longest message detail kept; longer ones lose their middle. */
export const MAX_MESSAGE = 1000;

/**
 * A message is for a person: a detail that quotes too much of the file (a 200,000-character key
 * went whole into "expected ':' after key …") keeps its start and its end.
 */
function shorten(message: string): string {
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, 600)} … ${message.slice(-300)}`;
}

export class ImportError extends Error {
  readonly file: string;
  readonly detail: string;
  readonly line?: number;
  readonly offset?: number;

  constructor(data: ImportErrorData) {
    const message = shorten(data.message);
    super(formatImportError({ ...data, message }));
    this.name = 'ImportError';
    this.file = data.file;
    this.detail = message;
    if (data.line !== undefined) this.line = data.line;
    if (data.offset !== undefined) this.offset = data.offset;
  }

  toData(): ImportErrorData {
    const d: ImportErrorData = { file: this.file, message: this.detail };
    if (this.line !== undefined) d.line = this.line;
    if (this.offset !== undefined) d.offset = this.offset;
    return d;
  }
}

export function formatImportError(d: ImportErrorData): string {
  const where = d.line !== undefined ? `:${d.line}` : d.offset !== undefined ? ` (byte ${d.offset})` : '';
  return `${d.file}${where}: ${d.message}`;
}

/** Any thrown value as plain error data naming the file. */
export function toImportErrorData(e: unknown, file: string): ImportErrorData {
  if (e instanceof ImportError) return e.toData();
  if (e instanceof RangeError && /call stack|Invalid (string|array) length|allocation/i.test(e.message))
    return { file, message: `the file is too large or too deeply nested to read (${e.message})` };
  const message = e instanceof Error ? e.message : String(e);
  return { file, message: `could not be read: ${message}` };
}
