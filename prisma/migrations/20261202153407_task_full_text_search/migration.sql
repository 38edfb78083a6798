-- DropIndex
DROP INDEX "tasks_curation_status_idx";

-- DropIndex
DROP INDEX "tasks_problem_statement_trgm_idx";

-- AlterTable: Postgres keeps the search vector in step with the problem statement itself.
-- The "simple" configuration (no stemming, no stop words) suits code identifiers and mixed languages.
ALTER TABLE "tasks" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("problem_statement", ''))) STORED;

-- CreateIndex
CREATE INDEX "tasks_curation_status_created_at_id_idx" ON "tasks"("curation_status", "created_at", "id");

-- CreateIndex
CREATE INDEX "tasks_search_vector_idx" ON "tasks" USING GIN ("search_vector");
