// Content-addressed blobs (evidence files) over the API. Declared here for the OpenAPI document and
// the reference; served by server/http/blob-routes.ts (`handwritten`): an upload streams into the
// store as it is hashed, and a download streams out, so neither goes through a JSON door.
import { z } from "zod";
import { SHA256_HEX } from "../domain/events/event-schemas";
import { defineOperation } from "../operations/operation";
import type { BlobCheck, BlobStored } from "../wire/blobs";

const tag = "Blobs";
const sha256 = z
  .string()
  .regex(SHA256_HEX)
  .describe("the blob's name: the lowercase hex SHA-256 of its bytes");
/** Reading goes through a pod whose evidence names the blob. */
const read = {
  sha256,
  pod: z
    .string()
    .optional()
    .describe(
      "a pod you may read whose evidence names the blob (implied for an agent token or a share link)",
    ),
};
const ZBlobCheck = z.object({
  sha256: z.string(),
  ok: z.boolean(),
  size: z.number().int(),
}) satisfies z.ZodType<BlobCheck>;
const readers =
  "Whatever you may not read through that pod is 404, as a missing blob is; a site admin may read any blob " +
  "without `pod`.";

export const blobOperations = {
  putBlob: defineOperation({
    name: "putBlob",
    summary:
      "Uploads a file's bytes under their SHA-256 (an agent token or the admin token; 403 otherwise). 201 with " +
      "`created` when stored now, 200 when it was there already; 400 when the bytes do not hash to the name, 413 " +
      "past the upload limit, 503 with `Retry-After` while the server takes as many uploads as it can.",
    tag,
    input: z.object({ sha256, bytes: z.string().describe("the file's bytes, as they are") }),
    output: z.object({
      sha256: z.string(),
      size: z.number().int(),
      created: z.boolean(),
    }) satisfies z.ZodType<BlobStored>,
    guard: "authenticated",
    http: {
      method: "PUT",
      path: "/api/v1/blobs/{sha256}",
      status: 201,
      also: [200],
      body: "bytes",
      media: { request: ["application/octet-stream"] },
      handwritten: true,
    },
  }),
  headBlob: defineOperation({
    name: "headBlob",
    summary: `Whether a blob is there: 200 with its size as Content-Length, no body. ${readers}`,
    tag,
    input: z.object(read),
    output: z.null(),
    guard: "authenticated",
    http: {
      method: "HEAD",
      path: "/api/v1/blobs/{sha256}",
      status: 200,
      media: { response: [] },
      handwritten: true,
    },
  }),
  getBlob: defineOperation({
    name: "getBlob",
    summary: `Downloads a blob's bytes, as an attachment (never rendered as a page). ${readers}`,
    tag,
    input: z.object(read),
    output: z.string().describe("the blob's bytes, as uploaded"),
    guard: "authenticated",
    http: {
      method: "GET",
      path: "/api/v1/blobs/{sha256}",
      status: 200,
      media: { response: ["application/octet-stream"] },
      handwritten: true,
    },
  }),
  verifyBlob: defineOperation({
    name: "verifyBlob",
    summary:
      "Hashes the stored bytes again: `ok` when they still hash to the blob's name. One verification at a time " +
      `per caller (429 \`verification_in_progress\` with \`Retry-After\`). ${readers}`,
    tag,
    input: z.object(read),
    output: ZBlobCheck,
    guard: "authenticated",
    http: { method: "GET", path: "/api/v1/blobs/{sha256}/verify", status: 200, handwritten: true },
  }),
};
