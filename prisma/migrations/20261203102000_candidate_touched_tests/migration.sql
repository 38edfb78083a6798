-- AlterEnum
ALTER TYPE "FailureClass" ADD VALUE 'CANDIDATE_TOUCHED_TESTS';

-- AlterTable
ALTER TABLE "validation_runs" ADD COLUMN     "touched_test_paths" TEXT[] DEFAULT ARRAY[]::TEXT[];
