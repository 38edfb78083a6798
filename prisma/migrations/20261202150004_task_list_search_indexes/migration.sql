-- trigram search over instance ids and problem statements (a trusted extension: the database owner may create it)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- DropIndex
DROP INDEX "tasks_created_at_idx";

-- CreateIndex
CREATE INDEX "tasks_created_at_id_idx" ON "tasks"("created_at", "id");

-- CreateIndex
CREATE INDEX "tasks_updated_at_id_idx" ON "tasks"("updated_at", "id");

-- CreateIndex
CREATE INDEX "tasks_labels_idx" ON "tasks" USING GIN ("labels");

-- CreateIndex
CREATE INDEX "tasks_instance_id_trgm_idx" ON "tasks" USING GIN ("instance_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tasks_problem_statement_trgm_idx" ON "tasks" USING GIN ("problem_statement" gin_trgm_ops);
