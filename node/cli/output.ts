/**
 * What a command writes to: standard output and standard error, the process's in `flamelens`,
 * in memory in tests. Names and paths come from files anyone may have made, so text goes out with
 * control and bidirectional-control characters as visible escapes (a name cannot move the cursor,
 * change the terminal's title or hide text), line breaks kept; JSON with the same characters as
 * `\u` escapes, which read back as what the file held.
 */
import { terminalJson, terminalText } from '../../shared/model/visible-text';

/** Somewhere text is written: a Node stream, or a buffer in tests. */
export interface Sink {
  write(text: string): unknown;
  /** a Node stream's: `listener` is called once what it held has gone on (after `write` said false) */
  once?(event: 'drain', listener: () => void): unknown;
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
 * `writeText`, for output written in pieces: when the sink holds more than it wants to (a pipe
 * to a program that reads slower than this writes), the next piece waits until it has passed
 * that on, so that output larger than memory is never held.
 */
export async function writeTextInTurn(sink: Sink, text: string): Promise<void> {
  if (sink.write(terminalText(text)) === false && sink.once) await new Promise<void>((resolve) => sink.once!('drain', resolve));
}

export function writeJson(sink: Sink, json: string): void {
  sink.write(terminalJson(json));
}
