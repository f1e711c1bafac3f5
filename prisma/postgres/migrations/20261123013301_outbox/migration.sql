-- CreateTable
CREATE TABLE "outbox" (
    "id" SERIAL NOT NULL,
    "pod_id" TEXT NOT NULL,
    "from_seq" INTEGER NOT NULL,
    "to_seq" INTEGER NOT NULL,
    "inbox" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "claimed_until" TEXT,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
