-- CreateEnum
CREATE TYPE "StepKind" AS ENUM ('READ', 'SEARCH', 'EDIT', 'RUN', 'TEST', 'SUBMIT', 'THINK', 'ERROR');

-- AlterTable: the kind is set by the importer, Postgres keeps the search vector in step with the texts
-- ("simple": no stemming or stop words, for code identifiers, each text cut so the vector stays under 1 MB).
ALTER TABLE "trajectory_steps" ADD COLUMN     "kind" "StepKind",
ADD COLUMN     "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, (((("left"(COALESCE(thought, ''::text), 100000) || ' '::text) || "left"(COALESCE(action, ''::text), 100000)) || ' '::text) || "left"(COALESCE(observation, ''::text), 200000)))) STORED;

-- CreateTable
CREATE TABLE "step_annotations" (
    "id" TEXT NOT NULL,
    "trajectory_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "label" TEXT,
    "comment" TEXT,
    "author_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_annotations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "step_annotations_trajectory_id_step_index_idx" ON "step_annotations"("trajectory_id", "step_index");

-- CreateIndex
CREATE INDEX "step_annotations_label_created_at_idx" ON "step_annotations"("label", "created_at");

-- CreateIndex
CREATE INDEX "trajectory_steps_trajectory_id_kind_index_idx" ON "trajectory_steps"("trajectory_id", "kind", "index");

-- CreateIndex
CREATE INDEX "trajectory_steps_search_vector_idx" ON "trajectory_steps" USING GIN ("search_vector");

-- AddForeignKey
ALTER TABLE "step_annotations" ADD CONSTRAINT "step_annotations_trajectory_id_fkey" FOREIGN KEY ("trajectory_id") REFERENCES "trajectories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_annotations" ADD CONSTRAINT "step_annotations_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
