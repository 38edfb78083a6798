-- CreateIndex
CREATE INDEX "curation_decisions_reasons_idx" ON "curation_decisions" USING GIN ("reasons");
