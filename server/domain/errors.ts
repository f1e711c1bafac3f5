// Failures a caller can act on. Adapters map `status` straight to HTTP.
export type ErrorIssue = { path: string; message: string };

/**
 * Next bundles its own copy of this module beside the custom server's (server/app-context.ts), so
 * an error thrown by the app's write path is not an instance of the bundle's class: `instanceof`
 * asks this mark instead, and a refusal keeps its status, code and words across the two.
 */
const MARK = Symbol.for("podwatch.AppError");

export class AppError extends Error {
  readonly [MARK] = true;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    // A subclass (UploadsBusy, …) keeps the ordinary check: only AppError itself spans the copies.
    if (this !== AppError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as { [MARK]?: unknown })[MARK] === true;
  }
}

export const notFound = (what: string) => new AppError(404, "not_found", `${what} not found`);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const invalid = (message: string, issues?: ErrorIssue[]) =>
  new AppError(400, "invalid_request", message, issues);
