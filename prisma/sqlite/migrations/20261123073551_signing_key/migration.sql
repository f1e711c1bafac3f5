-- CreateTable
CREATE TABLE "signing_key" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key_id" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "private_key" TEXT NOT NULL,
    "created_at" TEXT NOT NULL
);
