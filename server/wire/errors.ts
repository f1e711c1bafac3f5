// What an error answer names besides its code and message: the fields that broke a schema.
export type { ErrorIssue } from "../domain/errors";
