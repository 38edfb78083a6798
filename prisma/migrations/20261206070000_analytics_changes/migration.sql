-- The analytics pages (reviewers, generated tests, verifiability, revision loop) rebuild one
-- fact row per item from joins over six tables on every request. lib/analytics/fact-cache.ts
-- keeps each page's facts in memory with the snapshot they were read in; these triggers record
-- which transactions wrote to those tables, so a later read can ask "did anything commit since
-- that snapshot?" in one index scan and reuse the facts when nothing did.
--
-- One row per writing transaction (a second statement of the same transaction conflicts with
-- its own row and does nothing). Appending never waits on another writer: a single counter
-- row would serialise every write on it and could deadlock two writers.
CREATE TABLE "analytics_changes" (
    "txid" BIGINT NOT NULL,

    CONSTRAINT "analytics_changes_pkey" PRIMARY KEY ("txid")
);

-- Emptying analytics_changes forgets transactions a cached snapshot did not see; the fold
-- bumps this generation in the same transaction, and a cache read under another generation
-- is thrown away.
CREATE TABLE "analytics_generation" (
    "id" INTEGER NOT NULL,
    "generation" BIGINT NOT NULL,

    CONSTRAINT "analytics_generation_pkey" PRIMARY KEY ("id")
);
INSERT INTO "analytics_generation" ("id", "generation") VALUES (1, 0);

CREATE FUNCTION "analytics_changes_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_changes (txid) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END $$;

-- every table an analytics page's facts are read from; validation runs only for the columns
-- the pages read, so a running job appending to its log does not empty the cache each line
CREATE TRIGGER "analytics_changes_tasks" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tasks"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_trajectories" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "trajectories"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_candidate_patches" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "candidate_patches"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_environments" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environments"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_environment_revisions" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environment_revisions"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_repositories" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "repositories"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_validation_runs" AFTER INSERT OR DELETE OR TRUNCATE ON "validation_runs"
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
CREATE TRIGGER "analytics_changes_validation_run_results" AFTER UPDATE OF
    "task_id", "candidate_patch_id", "kind", "status", "resolved", "failure_class", "finished_at", "attempt", "import_batch_id", "log"
  ON "validation_runs" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_changes_record"();
