/** A command-line error: printed as one line on stderr, exit status 1, no stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
  }
}
