// Blobs are stored once by content, shared by every pod that names them, so a
// blob is read through a pod that references it, never by its hash alone. A
// pod references a blob when one of its evidence bundles names it: as an
// artifact or as the bundle's manifest.
import type { TapeStore } from "../db/tape-store";

const CANDIDATES = 50;
const NEWEST = 2_147_483_647;

type BundleBody = { artifacts?: { sha256?: unknown }[]; manifestHash?: unknown };

export async function podReferencesBlob(store: TapeStore, podId: string, sha256: string): Promise<boolean> {
  // The text search narrows to bundles mentioning the hash anywhere; the body decides where.
  for (let before = NEWEST; ;) {
    const page = await store.searchEvents(
      podId,
      { types: ["evidence.bundle"], q: sha256 },
      before,
      CANDIDATES,
    );
    for (const e of page) if (names(JSON.parse(e.body) as BundleBody, sha256)) return true;
    if (page.length < CANDIDATES) return false;
    before = page.at(-1)!.seq;
  }
}

const names = (b: BundleBody, sha256: string) =>
  b.manifestHash === sha256 || (b.artifacts ?? []).some((a) => a.sha256 === sha256);
