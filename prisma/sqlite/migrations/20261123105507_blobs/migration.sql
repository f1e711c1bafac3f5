-- CreateTable
CREATE TABLE "blob" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "size" BIGINT NOT NULL,
    "content_id" TEXT NOT NULL,
    "created_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "blob_chunk" (
    "content_id" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("content_id", "idx")
);

-- CreateIndex
CREATE UNIQUE INDEX "blob_content_id_key" ON "blob"("content_id");
