-- AlterTable
ALTER TABLE "share_link" ADD COLUMN     "label" TEXT,
ADD COLUMN     "last_used_at" TEXT;
