-- CreateEnum
CREATE TYPE "RunPhase" AS ENUM ('BUILDING_IMAGE', 'STARTING_CONTAINER', 'APPLYING_PATCHES', 'RUNNING_TESTS', 'COLLECTING_RESULTS');

-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "cancel_requested" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "validation_runs" ADD COLUMN     "phase" "RunPhase";
