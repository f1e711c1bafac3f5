-- CreateTable
CREATE TABLE "pod_checkpoint" (
    "pod_id" TEXT NOT NULL,
    "fold" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "max_at" TEXT NOT NULL,
    "state" BLOB NOT NULL,

    PRIMARY KEY ("pod_id", "fold", "seq")
);
