// Content-addressed blobs (evidence artifacts), as PUT and GET …/verify answer them.

/** PUT /api/v1/blobs/{sha256}: 201 with `created` when stored now, 200 when it was already there. */
export type BlobStored = { sha256: string; size: number; created: boolean };
/** GET /api/v1/blobs/{sha256}/verify: whether the stored bytes still hash to their name. */
export type BlobCheck = { sha256: string; ok: boolean; size: number };
