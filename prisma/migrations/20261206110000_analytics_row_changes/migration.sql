-- The analytics fact cache (lib/analytics/fact-cache.ts) used to learn only THAT a transaction
-- wrote to the tables its facts are read from (analytics_changes, one row per transaction), so
-- the first read after any write read every fact again: 10-12x the raw SQL at 100,000 tasks.
-- These triggers record WHAT changed, one row per changed key, so that read re-reads the facts
-- of the tasks those keys reach and folds them into the kept facts.
--
-- Each row carries the id of the transaction that wrote it. A reader compares ids against the
-- snapshot its facts were read in (pg_visible_in_snapshot), not against a time or a counter
-- taken at write time: a long transaction that began before the facts were read but commits
-- after is still "not visible in that snapshot", so its rows are found, whatever its updated_at.
--
-- kind / key, and what a key reaches (resolved at read time, see reachedTasks in lib/analytics/fact-cache.ts):
--   task        a task id: that task's facts (its row, its runs, its trajectories, its candidates)
--   instance    a task's instance id (or version changed): generated tests made for it
--   environment an environment id: its tasks       repository   a repository id: its tasks
--   revision    an environment revision id: tasks of the environment whose current one it is
--   candidate   a candidate patch id: reviews of it, revision pairs of its task
--   review      a trajectory's metadata.reviewId: revision pairs that name that review
--   all         TRUNCATE: everything is read again
-- A key is recorded with the row's values before and after, so a link that moved is found from
-- both ends; the read resolves links in its own snapshot, so a link made by a transaction the
-- writer could not see yet is followed too.
CREATE TABLE "analytics_row_changes" (
    "txid" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "analytics_row_changes_pkey" PRIMARY KEY ("txid", "kind", "key")
);

-- the fold now deletes only rows older than every running transaction and remembers where it
-- cut: facts read in a snapshot from before that point are read again in full
ALTER TABLE "analytics_generation" ADD COLUMN "horizon" BIGINT NOT NULL DEFAULT 0;
-- the horizon says all the generation counter said: whether kept facts are older than a fold
ALTER TABLE "analytics_generation" DROP COLUMN "generation";

-- reviews are reached from a changed candidate through this link
CREATE INDEX "trajectories_candidate_patch_id_idx" ON "trajectories"("candidate_patch_id");

-- Statement triggers with transition tables: one INSERT ... SELECT per statement, so a bulk
-- import pays one extra statement, not one per row. Arguments: pairs of (kind, expression over
-- the transition row r). Transition tables allow one event per trigger, hence three triggers.
CREATE FUNCTION "analytics_record_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text;
  i int;
BEGIN
  FOREACH source IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY['new_rows'] WHEN 'DELETE' THEN ARRAY['old_rows']
                                     ELSE ARRAY['old_rows', 'new_rows'] END LOOP
    FOR i IN 0 .. TG_NARGS - 1 BY 2 LOOP
      EXECUTE format(
        'INSERT INTO analytics_row_changes (txid, kind, key)
           SELECT DISTINCT pg_current_xact_id()::text::bigint, %L, (%s)::text FROM %I r WHERE (%s) IS NOT NULL
         ON CONFLICT DO NOTHING',
        TG_ARGV[i], TG_ARGV[i + 1], source, TG_ARGV[i + 1]);
    END LOOP;
  END LOOP;
  RETURN NULL;
END $$;

-- an update of a task records its instance only when what generated tests read of it changed
-- (a curation decision updates the task's status many times a minute; tests pointing at it are unaffected)
CREATE FUNCTION "analytics_record_task_updates"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_row_changes (txid, kind, key)
    SELECT DISTINCT pg_current_xact_id()::text::bigint, k.kind, k.key
    FROM old_rows o FULL JOIN new_rows n ON n.id = o.id,
    LATERAL (VALUES ('task', o.id), ('task', n.id),
                    ('instance', CASE WHEN o.instance_id IS DISTINCT FROM n.instance_id OR o.version IS DISTINCT FROM n.version
                                      THEN o.instance_id END),
                    ('instance', CASE WHEN o.instance_id IS DISTINCT FROM n.instance_id OR o.version IS DISTINCT FROM n.version
                                      THEN n.instance_id END)) k(kind, key)
    WHERE k.key IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- a run's log grows line by line while it runs; it is read (its tail) only once the run finished
CREATE FUNCTION "analytics_record_run_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_row_changes (txid, kind, key)
    SELECT DISTINCT pg_current_xact_id()::text::bigint, k.kind, k.key
    FROM (VALUES ('task', OLD.task_id), ('task', NEW.task_id),
                 ('candidate', OLD.candidate_patch_id), ('candidate', NEW.candidate_patch_id)) k(kind, key)
    WHERE k.key IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION "analytics_record_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_row_changes (txid, kind, key) VALUES (pg_current_xact_id()::text::bigint, 'all', '')
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- the old per-transaction record is replaced by the per-key one
DROP TRIGGER "analytics_changes_tasks" ON "tasks";
DROP TRIGGER "analytics_changes_trajectories" ON "trajectories";
DROP TRIGGER "analytics_changes_candidate_patches" ON "candidate_patches";
DROP TRIGGER "analytics_changes_environments" ON "environments";
DROP TRIGGER "analytics_changes_environment_revisions" ON "environment_revisions";
DROP TRIGGER "analytics_changes_repositories" ON "repositories";
DROP TRIGGER "analytics_changes_validation_runs" ON "validation_runs";
DROP TRIGGER "analytics_changes_validation_run_results" ON "validation_runs";
DROP FUNCTION "analytics_changes_record"();
DROP TABLE "analytics_changes";

CREATE TRIGGER "analytics_rows_tasks_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.id', 'instance', 'r.instance_id');
CREATE TRIGGER "analytics_rows_tasks_update" AFTER UPDATE ON "tasks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_task_updates"();
CREATE TRIGGER "analytics_rows_tasks_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.id', 'instance', 'r.instance_id');

CREATE TRIGGER "analytics_rows_trajectories_insert" AFTER INSERT ON "trajectories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.task_id', 'review', 'r.metadata->>''reviewId''');
CREATE TRIGGER "analytics_rows_trajectories_update" AFTER UPDATE ON "trajectories" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.task_id', 'review', 'r.metadata->>''reviewId''');
CREATE TRIGGER "analytics_rows_trajectories_delete" AFTER DELETE ON "trajectories" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.task_id', 'review', 'r.metadata->>''reviewId''');

CREATE TRIGGER "analytics_rows_candidate_patches_insert" AFTER INSERT ON "candidate_patches" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('candidate', 'r.id', 'task', 'r.task_id');
CREATE TRIGGER "analytics_rows_candidate_patches_update" AFTER UPDATE ON "candidate_patches" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('candidate', 'r.id', 'task', 'r.task_id');
CREATE TRIGGER "analytics_rows_candidate_patches_delete" AFTER DELETE ON "candidate_patches" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('candidate', 'r.id', 'task', 'r.task_id');

CREATE TRIGGER "analytics_rows_environments_insert" AFTER INSERT ON "environments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('environment', 'r.id');
CREATE TRIGGER "analytics_rows_environments_update" AFTER UPDATE ON "environments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('environment', 'r.id');
CREATE TRIGGER "analytics_rows_environments_delete" AFTER DELETE ON "environments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('environment', 'r.id');

CREATE TRIGGER "analytics_rows_environment_revisions_insert" AFTER INSERT ON "environment_revisions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('revision', 'r.id');
CREATE TRIGGER "analytics_rows_environment_revisions_update" AFTER UPDATE ON "environment_revisions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('revision', 'r.id');
CREATE TRIGGER "analytics_rows_environment_revisions_delete" AFTER DELETE ON "environment_revisions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('revision', 'r.id');

CREATE TRIGGER "analytics_rows_repositories_insert" AFTER INSERT ON "repositories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('repository', 'r.id');
CREATE TRIGGER "analytics_rows_repositories_update" AFTER UPDATE ON "repositories" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('repository', 'r.id');
CREATE TRIGGER "analytics_rows_repositories_delete" AFTER DELETE ON "repositories" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('repository', 'r.id');

CREATE TRIGGER "analytics_rows_validation_runs_insert" AFTER INSERT ON "validation_runs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.task_id', 'candidate', 'r.candidate_patch_id');
CREATE TRIGGER "analytics_rows_validation_runs_delete" AFTER DELETE ON "validation_runs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_rows"('task', 'r.task_id', 'candidate', 'r.candidate_patch_id');
-- a row trigger (transition tables allow no column list): only the columns the pages read, and
-- the log only once the run has finished
CREATE TRIGGER "analytics_rows_validation_runs_update" AFTER UPDATE OF
    "task_id", "candidate_patch_id", "kind", "status", "resolved", "failure_class", "finished_at", "attempt", "import_batch_id", "log"
  ON "validation_runs" FOR EACH ROW
  WHEN ((OLD.task_id, OLD.candidate_patch_id, OLD.kind, OLD.status, OLD.resolved, OLD.failure_class, OLD.finished_at,
         OLD.attempt, OLD.import_batch_id)
        IS DISTINCT FROM (NEW.task_id, NEW.candidate_patch_id, NEW.kind, NEW.status, NEW.resolved, NEW.failure_class,
         NEW.finished_at, NEW.attempt, NEW.import_batch_id)
        OR (NEW.status = 'SUCCEEDED' AND OLD.log IS DISTINCT FROM NEW.log))
  EXECUTE FUNCTION "analytics_record_run_update"();

CREATE TRIGGER "analytics_rows_tasks_truncate" AFTER TRUNCATE ON "tasks" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_trajectories_truncate" AFTER TRUNCATE ON "trajectories" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_candidate_patches_truncate" AFTER TRUNCATE ON "candidate_patches" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_environments_truncate" AFTER TRUNCATE ON "environments" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_environment_revisions_truncate" AFTER TRUNCATE ON "environment_revisions" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_repositories_truncate" AFTER TRUNCATE ON "repositories" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
CREATE TRIGGER "analytics_rows_validation_runs_truncate" AFTER TRUNCATE ON "validation_runs" FOR EACH STATEMENT EXECUTE FUNCTION "analytics_record_truncate"();
