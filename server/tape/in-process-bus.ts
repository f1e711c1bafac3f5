// The bus within one process, the default: listeners run synchronously when the
// write path emits after commit. Any number may listen (one per waiting long-poll).
import { EventEmitter } from "node:events";
import type { BusEvent, BusEvents, BusHealth, BusListener, TapeBus } from "./bus";

export class InProcessBus implements TapeBus {
  readonly kind = "in-process" as const;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit<K extends BusEvent>(event: K, payload: BusEvents[K]) {
    this.emitter.emit(event, payload);
  }

  on<K extends BusEvent>(event: K, listener: BusListener<K>) {
    this.emitter.on(event, listener);
  }

  off<K extends BusEvent>(event: K, listener: BusListener<K>) {
    this.emitter.off(event, listener);
  }

  listenerCount(event: BusEvent) {
    return this.emitter.listenerCount(event);
  }

  health(): BusHealth {
    return { ok: true }; // nothing between the write path and the listeners can fail
  }

  async close() {}
}
