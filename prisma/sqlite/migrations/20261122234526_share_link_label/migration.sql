-- AlterTable
ALTER TABLE "share_link" ADD COLUMN "label" TEXT;
ALTER TABLE "share_link" ADD COLUMN "last_used_at" TEXT;
