-- AlterTable
ALTER TABLE "event" ADD COLUMN     "meta" TEXT;

-- CreateTable
CREATE TABLE "pod_state" (
    "pod_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" TEXT NOT NULL,

    CONSTRAINT "pod_state_pkey" PRIMARY KEY ("pod_id")
);

-- AddForeignKey
ALTER TABLE "pod_state" ADD CONSTRAINT "pod_state_pod_id_fkey" FOREIGN KEY ("pod_id") REFERENCES "pod"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
