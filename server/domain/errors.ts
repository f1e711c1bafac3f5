// Failures a caller can act on. Adapters map `status` straight to HTTP.
export type ErrorIssue = { path: string; message: string };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new AppError(404, "not_found", `${what} not found`);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const invalid = (message: string, issues?: ErrorIssue[]) =>
  new AppError(400, "invalid_request", message, issues);
