-- AlterTable
ALTER TABLE "event" ADD COLUMN "meta" TEXT;

-- CreateTable
CREATE TABLE "pod_state" (
    "pod_id" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    CONSTRAINT "pod_state_pod_id_fkey" FOREIGN KEY ("pod_id") REFERENCES "pod" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
