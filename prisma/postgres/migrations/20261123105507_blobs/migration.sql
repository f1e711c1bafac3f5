-- CreateTable
CREATE TABLE "blob" (
    "sha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "content_id" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,

    CONSTRAINT "blob_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "blob_chunk" (
    "content_id" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "blob_chunk_pkey" PRIMARY KEY ("content_id","idx")
);

-- CreateIndex
CREATE UNIQUE INDEX "blob_content_id_key" ON "blob"("content_id");

-- Chunks are mostly compressed or random bytes already: keep them out of line (TOAST) without
-- trying to compress each one first.
ALTER TABLE "blob_chunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;
