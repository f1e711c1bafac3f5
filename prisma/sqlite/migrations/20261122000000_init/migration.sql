-- CreateTable
CREATE TABLE "pod" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "scope" TEXT,
    "created_at" TEXT NOT NULL,
    "head_seq" INTEGER NOT NULL DEFAULT 0,
    "head_hash" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "event" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pod_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "role" TEXT,
    "ts" TEXT,
    "received_at" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "event_pod_id_fkey" FOREIGN KEY ("pod_id") REFERENCES "pod" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "pod_name_idx" ON "pod"("name");

-- CreateIndex
CREATE UNIQUE INDEX "event_pod_id_seq_key" ON "event"("pod_id", "seq");

-- The tape is append-only: the database itself refuses to change or remove an event.
CREATE TRIGGER "event_append_only_update" BEFORE UPDATE ON "event"
BEGIN
    SELECT RAISE(ABORT, 'podwatch: events are append-only');
END;

CREATE TRIGGER "event_append_only_delete" BEFORE DELETE ON "event"
BEGIN
    SELECT RAISE(ABORT, 'podwatch: events are append-only');
END;
