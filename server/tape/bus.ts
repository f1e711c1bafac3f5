// The in-process bus: the write path publishes committed events here and the
// realtime layer listens, so the store never imports the socket layer.
import { EventEmitter } from "node:events";
import type { TapeEvent } from "../wire/events";

export type CommittedBatch = { podId: string; events: TapeEvent[] };
/** A credential that was just revoked: whatever it still holds open (live sockets) ends now. */
export type RevokedCredential = { kind: "agent-token"; tokenId: string } | { kind: "share-link"; linkId: string };
type BusEvents = { committed: [CommittedBatch]; "pod-created": [{ podId: string }]; "credential-revoked": [RevokedCredential] };

export class TapeBus extends EventEmitter<BusEvents> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}
