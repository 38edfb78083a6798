// Exit codes scripts can trust (documented in `swe-curator --help` and lib/imports/README.md).
export const EXIT = {
  /** everything asked for was done: every record imported (or unchanged), export written, runs queued / valid */
  OK: 0,
  /** done, but not entirely: some records failed, or a validation finished not VALID */
  PARTIAL: 1,
  /** the command line is wrong, or the connection is not configured */
  USAGE: 2,
  /** nothing was done: unknown format, unreadable file, every record failed, the server refused */
  FAILED: 3,
  /** the database or server could not be reached, or the token was refused */
  UNREACHABLE: 4,
  /** interrupted (Ctrl-C): a running import was asked to cancel */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}
