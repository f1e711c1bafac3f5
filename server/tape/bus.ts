// The in-process bus: the write path publishes committed events here and the
// realtime layer listens, so the store never imports the socket layer.
import { EventEmitter } from "node:events";
import type { TapeEvent } from "../wire/events";

export type CommittedBatch = { podId: string; events: TapeEvent[] };
type BusEvents = { committed: [CommittedBatch]; "pod-created": [{ podId: string }] };

export class TapeBus extends EventEmitter<BusEvents> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}
