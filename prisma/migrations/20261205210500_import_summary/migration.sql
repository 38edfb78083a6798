-- AlterTable: what the import read a file or folder as ("read as a SWE-bench evaluation run: 1 run, 2 models, 500 instances"),
-- and notes that hold for the whole batch (a --generator that differs from the one the files name)
ALTER TABLE "import_batches" ADD COLUMN "summary" TEXT;
