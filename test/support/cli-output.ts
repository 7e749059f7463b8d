/**
 * For the command line's tests: an `Output` held in memory, and a command run with it, so that a
 * test reads what the command wrote to standard output and standard error without touching the
 * process's own.
 */
import { CliError } from '../../node/cli/errors';
import type { Output } from '../../node/cli/output';

/** An `Output` whose `out` and `err` are what was written to it. */
export interface MemoryOutput extends Output {
  readonly out: string;
  readonly err: string;
}

export function memoryOutput(): MemoryOutput {
  const text = { out: '', err: '' };
  // (bytes are UTF-8 written in pieces: a character split between two is put together)
  const decoders = { out: new TextDecoder(), err: new TextDecoder() };
  const sink = (to: 'out' | 'err') => ({
    write: (s: string | Uint8Array, done?: () => void) => {
      text[to] += typeof s === 'string' ? s : decoders[to].decode(s, { stream: true });
      done?.();
    },
  });
  return {
    stdout: sink('out'),
    stderr: sink('err'),
    get out() {
      return text.out;
    },
    get err() {
      return text.err;
    },
  };
}

export interface Captured {
  code: number;
  out: string;
  err: string;
  /** the error the command failed with (`captureFailure` only) */
  error?: Error;
}

/** A command line or command, run with the output it is given. */
type Runnable = (out: Output) => Promise<number>;

async function captured(command: Runnable, keepErrors: boolean): Promise<Captured> {
  const o = memoryOutput();
  try {
    const code = await command(o);
    return { code, out: o.out, err: o.err };
  } catch (error) {
    if (!keepErrors) throw error;
    return { code: error instanceof CliError ? error.status : -1, out: o.out, err: o.err, error: error as Error };
  }
}

/** Runs `command` with an output held in memory; an error it throws is thrown on. */
export function capture(command: Runnable): Promise<Captured> {
  return captured(command, false);
}

/** `capture`, with an error the command throws given back as `error`, and a `CliError`'s status as `code`. */
export function captureFailure(command: Runnable): Promise<Captured> {
  return captured(command, true);
}
