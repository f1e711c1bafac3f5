-- CreateTable
CREATE TABLE "pod" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "scope" TEXT,
    "created_at" TEXT NOT NULL,
    "head_seq" INTEGER NOT NULL DEFAULT 0,
    "head_hash" TEXT NOT NULL,

    CONSTRAINT "pod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event" (
    "id" TEXT NOT NULL,
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

    CONSTRAINT "event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pod_name_idx" ON "pod"("name");

-- CreateIndex
CREATE UNIQUE INDEX "event_pod_id_seq_key" ON "event"("pod_id", "seq");

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_pod_id_fkey" FOREIGN KEY ("pod_id") REFERENCES "pod"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The tape is append-only: the database itself refuses to change or remove an event.
CREATE FUNCTION "podwatch_event_append_only"() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'podwatch: events are append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "event_append_only" BEFORE UPDATE OR DELETE ON "event"
    FOR EACH ROW EXECUTE FUNCTION "podwatch_event_append_only"();

CREATE TRIGGER "event_append_only_truncate" BEFORE TRUNCATE ON "event"
    FOR EACH STATEMENT EXECUTE FUNCTION "podwatch_event_append_only"();
