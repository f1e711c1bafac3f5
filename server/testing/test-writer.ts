import type { SystemIdentity } from "../domain/access/admit-append";

/** Tests that lay down a tape directly (an old pod, a server's notice) append as the server would, past the doors. */
export const TEST_WRITER: SystemIdentity = { kind: "system", name: "a test laying down a tape" };
