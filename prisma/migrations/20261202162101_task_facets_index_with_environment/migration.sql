-- DropIndex
DROP INDEX "tasks_facets_idx";

-- CreateIndex
CREATE INDEX "tasks_facets_idx" ON "tasks"("curation_status", "automated_verdict", "failure_class", "source", "kind", "difficulty", "environment_id");
