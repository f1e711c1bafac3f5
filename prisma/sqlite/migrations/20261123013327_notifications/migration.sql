-- CreateTable
CREATE TABLE "push_subscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "last_success_at" TEXT
);

-- CreateTable
CREATE TABLE "notification_pref" (
    "user_id" TEXT NOT NULL,
    "pod_id" TEXT NOT NULL,
    "level" TEXT NOT NULL,

    PRIMARY KEY ("user_id", "pod_id")
);

-- CreateTable
CREATE TABLE "notification_settings" (
    "user_id" TEXT NOT NULL PRIMARY KEY,
    "quiet_start" TEXT,
    "quiet_end" TEXT,
    "time_zone" TEXT NOT NULL,
    "email" BOOLEAN NOT NULL DEFAULT true
);

-- CreateTable
CREATE TABLE "notification_delivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "key" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "pod_id" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "outcome" TEXT,
    "not_before" TEXT NOT NULL,
    "claimed_until" TEXT,
    "created_at" TEXT NOT NULL,
    "done_at" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "push_subscription_endpoint_key" ON "push_subscription"("endpoint");

-- CreateIndex
CREATE INDEX "push_subscription_user_id_idx" ON "push_subscription"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_delivery_key_key" ON "notification_delivery"("key");

-- CreateIndex
CREATE INDEX "notification_delivery_outcome_not_before_idx" ON "notification_delivery"("outcome", "not_before");

-- CreateIndex
CREATE INDEX "notification_delivery_pod_id_item_id_idx" ON "notification_delivery"("pod_id", "item_id");
