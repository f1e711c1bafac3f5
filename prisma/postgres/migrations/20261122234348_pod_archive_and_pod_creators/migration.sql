-- AlterTable
ALTER TABLE "auth_user" ADD COLUMN     "can_create_pods" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "pod" ADD COLUMN     "archived_at" TEXT;
