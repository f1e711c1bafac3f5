// What the SDK throws: the server's own error code and message, or a
// connection failure. The CLI maps these onto exit codes.
import type { ErrorIssue } from "../../server/wire/errors";

export type { ErrorIssue };

export class PodwatchError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ErrorIssue[] = [],
  ) {
    super(message);
    this.name = "PodwatchError";
  }
}

/** A usage mistake found before anything was sent (bad config, unreadable file). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The caller gave up (Ctrl-C, or an MCP client cancelled the call). */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "Interrupted";
  }
}
