-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "outage_retries" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "validation_runs" ADD COLUMN     "outage_retries" INTEGER NOT NULL DEFAULT 0;
