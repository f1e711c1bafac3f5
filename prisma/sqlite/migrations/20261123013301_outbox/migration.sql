-- CreateTable
CREATE TABLE "outbox" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pod_id" TEXT NOT NULL,
    "from_seq" INTEGER NOT NULL,
    "to_seq" INTEGER NOT NULL,
    "inbox" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "claimed_until" TEXT
);
