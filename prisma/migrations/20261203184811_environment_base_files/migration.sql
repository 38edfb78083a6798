-- CreateTable
CREATE TABLE "file_blobs" (
    "sha256" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "file_blobs_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "environment_base_files" (
    "environment_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "sha256" TEXT,
    "size" INTEGER,
    "skipped_reason" TEXT,
    "context_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "environment_base_files_pkey" PRIMARY KEY ("environment_id","path")
);

-- CreateIndex
CREATE INDEX "environment_base_files_sha256_idx" ON "environment_base_files"("sha256");

-- AddForeignKey
ALTER TABLE "environment_base_files" ADD CONSTRAINT "environment_base_files_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environment_base_files" ADD CONSTRAINT "environment_base_files_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "file_blobs"("sha256") ON DELETE SET NULL ON UPDATE CASCADE;
