// What an error answer names besides its code and message: the fields that broke a schema.
import type { ErrorIssue } from "../domain/errors";

export type { ErrorIssue };
/** Every refusal of the API, whatever its status: a code to branch on, a sentence, and the fields that broke a schema. */
export type ErrorBody = { error: { code: string; message: string; issues?: ErrorIssue[] } };
