// Keeps a pod's checkpoints up with its tape: when a commit passes a multiple of the checkpoint
// interval, the history reader replays up to it (from the checkpoint before, so ~one interval of
// events), in the background and in slices. Then no history read, the first included, replays
// more than one interval. An outbox consumer, so one node of a cluster takes each commit; it
// returns at once (a checkpoint is a cache of the tape: one lost to a restart is made by the next
// read that passes it).
import type { AppContext } from "../app-context";
import type { OutboxBatch, OutboxConsumer } from "../outbox/outbox";
import { podHistory } from "./pod-history";

class CheckpointConsumer implements OutboxConsumer {
  readonly name = "checkpoints";
  private readonly working = new Set<Promise<unknown>>();

  constructor(private readonly app: AppContext) {}

  async take(batch: OutboxBatch): Promise<void> {
    const history = podHistory(this.app.store);
    const last = Math.floor(batch.toSeq / history.every) * history.every;
    if (last < batch.fromSeq) return;
    const work = history
      .stateAt(batch.podId, last)
      .catch((e) => console.warn(`podwatch: checkpoint ${batch.podId}@${last} not made: ${e}`));
    this.working.add(work);
    void work.finally(() => this.working.delete(work));
  }

  /** Waits for the replays under way (before the store closes). */
  async settle() {
    await Promise.all(this.working);
    await podHistory(this.app.store).idle();
  }
}

export function startCheckpoints(app: AppContext): () => Promise<void> {
  const consumer = new CheckpointConsumer(app);
  app.outbox.register(consumer);
  return () => consumer.settle();
}
