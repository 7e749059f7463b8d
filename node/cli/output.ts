/**
 * What a command writes to: standard output and standard error, the process's in `flamelens`,
 * in memory in tests. Names and paths come from files anyone may have made, so text goes out with
 * control and bidirectional-control characters as visible escapes (a name cannot move the cursor,
 * change the terminal's title or hide text), line breaks kept; JSON with the same characters as
 * `\u` escapes, which read back as what the file held.
 */
import { terminalJson, terminalText } from '../../shared/model/visible-text';

/** Somewhere text is written: a Node stream, or a buffer in tests. Bytes are UTF-8 text. */
export interface Sink {
  /** `done`, where given, is called once the sink has let go of `chunk` (a Node stream's write callback) */
  write(chunk: string | Uint8Array, done?: (err?: Error | null) => void): unknown;
}

/** A command's two outputs. */
export interface Output {
  stdout: Sink;
  stderr: Sink;
}

/** The process's own standard output and standard error. */
export function processOutput(): Output {
  return { stdout: process.stdout, stderr: process.stderr };
}

export function writeText(sink: Sink, text: string): void {
  sink.write(terminalText(text));
}

/**
 * UTF-8 text already made safe for a terminal (its names passed through `terminalText`), for
 * output written in pieces: resolves once the sink has passed `bytes` on (a pipe to a program
 * that reads slower than this writes holds them until then), so that output larger than memory
 * is never held and the memory of `bytes` may hold the next piece: true then; false where the
 * write failed (the stream's own error event tells why). It resolves in a turn of its own: a
 * file is written at once, and without a turn between pieces the engine's own tasks (the
 * collector's among them) would wait until the last piece (a 97 MB collapsed file's output
 * peaked 20 MB higher into a file than into a pipe).
 */
export function writeBytesInTurn(sink: Sink, bytes: Uint8Array): Promise<boolean> {
  return new Promise<boolean>((resolve) => sink.write(bytes, (err) => setImmediate(() => resolve(!err))));
}

export function writeJson(sink: Sink, json: string): void {
  sink.write(terminalJson(json));
}
