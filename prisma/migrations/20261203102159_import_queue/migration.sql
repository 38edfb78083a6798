-- AlterEnum
ALTER TYPE "ImportStatus" ADD VALUE 'QUEUED';

-- AlterTable
ALTER TABLE "import_batches" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "checkpoint" JSONB,
ADD COLUMN     "heartbeat_at" TIMESTAMP(3),
ADD COLUMN     "options" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "worker_id" TEXT;

-- CreateTable
CREATE TABLE "import_upload_chunks" (
    "batch_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "import_upload_chunks_pkey" PRIMARY KEY ("batch_id","seq")
);

-- AddForeignKey
ALTER TABLE "import_upload_chunks" ADD CONSTRAINT "import_upload_chunks_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "import_batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- uploads are mostly already-compressed or about to be read once: skip TOAST compression
ALTER TABLE "import_upload_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
