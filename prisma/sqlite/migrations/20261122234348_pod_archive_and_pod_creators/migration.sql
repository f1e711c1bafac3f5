-- AlterTable
ALTER TABLE "pod" ADD COLUMN "archived_at" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_auth_user" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "can_create_pods" BOOLEAN NOT NULL DEFAULT false,
    "must_change_password" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_auth_user" ("created_at", "email", "email_verified", "id", "image", "is_admin", "must_change_password", "name", "updated_at") SELECT "created_at", "email", "email_verified", "id", "image", "is_admin", "must_change_password", "name", "updated_at" FROM "auth_user";
DROP TABLE "auth_user";
ALTER TABLE "new_auth_user" RENAME TO "auth_user";
CREATE UNIQUE INDEX "auth_user_email_key" ON "auth_user"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
