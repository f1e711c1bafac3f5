-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pod_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "failing_since" TEXT,
    "created_at" TEXT NOT NULL,
    "created_by" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "endpoint_id" TEXT NOT NULL,
    "pod_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "schedule_from" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "claimed_until" TEXT,
    "created_at" TEXT NOT NULL,
    "last_attempt_at" TEXT,
    "last_status" INTEGER,
    "last_latency_ms" INTEGER,
    "last_error" TEXT,
    "last_response" TEXT,
    CONSTRAINT "webhook_delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_endpoint_pod_id_idx" ON "webhook_endpoint"("pod_id");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_next_attempt_at_idx" ON "webhook_delivery"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_endpoint_id_created_at_idx" ON "webhook_delivery"("endpoint_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_endpoint_id_message_id_key" ON "webhook_delivery"("endpoint_id", "message_id");
