-- The task list's decided, reason and reviewer filters tested each task against its decisions
-- and trajectories (EXISTS): at a million tasks their facets scanned every task and joined
-- 440,000 decisions or 200,000 trajectories, 0.5-1 s. The three attributes now live on the
-- task, kept by triggers on the child tables in the same transaction, and two more tallies
-- count tasks per them (as task_facet_tallies does per the six facet columns).

ALTER TABLE "tasks" ADD COLUMN "decided" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "decision_reasons" "DecisionReason"[] DEFAULT ARRAY[]::"DecisionReason"[],
ADD COLUMN "reviewer_decisions" "ReviewerDecision"[] DEFAULT ARRAY[]::"ReviewerDecision"[];

-- Each task's three attributes recomputed from its children. The rows are locked first, in id
-- order, and read in the next statement: under READ COMMITTED that statement's snapshot sees
-- what a concurrent writer of the same task committed while this one waited for its lock, so
-- two decisions made at once both count. Arrays are sorted and distinct: one set, one value.
CREATE FUNCTION "tasks_refresh_review"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tasks WHERE id = ANY(task_ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE tasks t SET decided = s.decided, decision_reasons = s.decision_reasons, reviewer_decisions = s.reviewer_decisions
  FROM (
    SELECT k.id,
      EXISTS (SELECT 1 FROM curation_decisions d WHERE d.task_id = k.id) AS decided,
      coalesce((SELECT array_agg(DISTINCT r ORDER BY r) FROM curation_decisions d, unnest(d.reasons) r WHERE d.task_id = k.id),
               ARRAY[]::"DecisionReason"[]) AS decision_reasons,
      coalesce((SELECT array_agg(DISTINCT tr.decision ORDER BY tr.decision) FROM trajectories tr
                WHERE tr.task_id = k.id AND tr.role = 'REVIEWER' AND tr.decision IS NOT NULL),
               ARRAY[]::"ReviewerDecision"[]) AS reviewer_decisions
    FROM unnest(task_ids) AS k(id)
  ) s
  WHERE t.id = s.id
    AND (t.decided, t.decision_reasons, t.reviewer_decisions) IS DISTINCT FROM (s.decided, s.decision_reasons, s.reviewer_decisions);
END $$;

-- the tasks a statement on curation_decisions or trajectories touched, old and new (a row moved
-- to another task changes both); an update that changed none of what is kept touches nothing
CREATE FUNCTION "tasks_refresh_review_on_child_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT task_id) INTO ids FROM added WHERE task_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT task_id) INTO ids FROM removed WHERE task_id IS NOT NULL;
  ELSIF TG_TABLE_NAME = 'curation_decisions' THEN
    SELECT array_agg(DISTINCT k.id) INTO ids FROM removed o JOIN added a ON a.id = o.id, LATERAL (VALUES (o.task_id), (a.task_id)) k(id)
    WHERE (o.task_id, o.reasons) IS DISTINCT FROM (a.task_id, a.reasons);
  ELSE
    SELECT array_agg(DISTINCT k.id) INTO ids FROM removed o JOIN added a ON a.id = o.id, LATERAL (VALUES (o.task_id), (a.task_id)) k(id)
    WHERE (o.task_id, o.role, o.decision) IS DISTINCT FROM (a.task_id, a.role, a.decision) AND k.id IS NOT NULL;
  END IF;
  IF ids IS NOT NULL THEN PERFORM tasks_refresh_review(ids); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "tasks_refresh_review_on_child_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tasks_refresh_review(array_agg(id)) FROM tasks
  WHERE decided OR decision_reasons <> '{}' OR reviewer_decisions <> '{}';
  RETURN NULL;
END $$;

CREATE TRIGGER "tasks_review_decisions_insert" AFTER INSERT ON "curation_decisions" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_decisions_update" AFTER UPDATE ON "curation_decisions" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_decisions_delete" AFTER DELETE ON "curation_decisions" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_decisions_truncate" AFTER TRUNCATE ON "curation_decisions"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_truncate"();
CREATE TRIGGER "tasks_review_trajectories_insert" AFTER INSERT ON "trajectories" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_trajectories_update" AFTER UPDATE ON "trajectories" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_trajectories_delete" AFTER DELETE ON "trajectories" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_change"();
CREATE TRIGGER "tasks_review_trajectories_truncate" AFTER TRUNCATE ON "trajectories"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_refresh_review_on_child_truncate"();

-- CreateTable
CREATE TABLE "task_review_tallies" (
    "id" BIGSERIAL NOT NULL,
    "curation_status" "CurationStatus" NOT NULL,
    "automated_verdict" "AutomatedVerdict" NOT NULL,
    "failure_class" "FailureClass",
    "source" "TaskSource" NOT NULL,
    "kind" "TaskKind" NOT NULL,
    "difficulty" "Difficulty",
    "decided" BOOLEAN NOT NULL,
    "decision_reasons" "DecisionReason"[],
    "reviewer_decisions" "ReviewerDecision"[],
    "n" INTEGER NOT NULL,

    CONSTRAINT "task_review_tallies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_review_repository_tallies" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" TEXT NOT NULL,
    "curation_status" "CurationStatus" NOT NULL,
    "decided" BOOLEAN NOT NULL,
    "decision_reasons" "DecisionReason"[],
    "reviewer_decisions" "ReviewerDecision"[],
    "n" INTEGER NOT NULL,

    CONSTRAINT "task_review_repository_tallies_pkey" PRIMARY KEY ("id")
);

-- One trigger function for both tallies, named with its table and columns (TG_ARGV): a statement
-- appends its signed counts per combination of the columns, the old rows of an update counting
-- down and the new up, so a task whose tallied columns did not change nets to nothing and leaves
-- no row. repository_id is the task's environment's. An environment moved to another repository
-- moves its tasks' counts (only tallies per repository take that trigger).
CREATE FUNCTION "tasks_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tally TEXT := TG_ARGV[0];
  columns TEXT := TG_ARGV[1];
  counted TEXT;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I', tally);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'environments' THEN
    counted := 'SELECT t.*, o.repository_id, -1 AS n FROM removed o JOIN added a ON a.id = o.id JOIN tasks t ON t.environment_id = o.id WHERE o.repository_id <> a.repository_id
      UNION ALL SELECT t.*, a.repository_id, 1 AS n FROM removed o JOIN added a ON a.id = o.id JOIN tasks t ON t.environment_id = a.id WHERE o.repository_id <> a.repository_id';
  ELSE
    counted := concat_ws(' UNION ALL ',
      CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN 'SELECT t.*, e.repository_id, -1 AS n FROM removed t JOIN environments e ON e.id = t.environment_id' END,
      CASE WHEN TG_OP IN ('UPDATE', 'INSERT') THEN 'SELECT t.*, e.repository_id, 1 AS n FROM added t JOIN environments e ON e.id = t.environment_id' END);
  END IF;
  EXECUTE format('INSERT INTO %1$I (%2$s, n) SELECT %2$s, sum(n) FROM (%3$s) c GROUP BY %2$s HAVING sum(n) <> 0',
                 tally, columns, counted);
  RETURN NULL;
END $$;

CREATE TRIGGER "task_review_tallies_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_tallies', 'curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_tallies_update" AFTER UPDATE ON "tasks" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_tallies', 'curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_tallies_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_tallies', 'curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_tallies_truncate" AFTER TRUNCATE ON "tasks"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_tallies');
CREATE TRIGGER "task_review_repository_tallies_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_repository_tallies', 'repository_id, curation_status, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_repository_tallies_update" AFTER UPDATE ON "tasks" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_repository_tallies', 'repository_id, curation_status, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_repository_tallies_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_repository_tallies', 'repository_id, curation_status, decided, decision_reasons, reviewer_decisions');
CREATE TRIGGER "task_review_repository_tallies_truncate" AFTER TRUNCATE ON "tasks"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_repository_tallies');
CREATE TRIGGER "task_review_repository_tallies_environment_update" AFTER UPDATE ON "environments" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks_tally"('task_review_repository_tallies', 'repository_id, curation_status, decided, decision_reasons, reviewer_decisions');

-- the tasks already there: their attributes, set with every update trigger on tasks off (none
-- of them reads these columns but the new tallies, which are counted whole after)
ALTER TABLE "tasks" DISABLE TRIGGER "task_review_tallies_update", DISABLE TRIGGER "task_review_repository_tallies_update",
  DISABLE TRIGGER "task_facet_tallies_update", DISABLE TRIGGER "task_repository_tallies_update",
  DISABLE TRIGGER "analytics_rows_tasks_update";
WITH decisions AS (
  SELECT d.task_id, coalesce(array_agg(DISTINCT r.reason ORDER BY r.reason) FILTER (WHERE r.reason IS NOT NULL),
                             ARRAY[]::"DecisionReason"[]) AS reasons
  FROM curation_decisions d LEFT JOIN LATERAL unnest(d.reasons) AS r(reason) ON true
  GROUP BY d.task_id
), reviews AS (
  SELECT tr.task_id, array_agg(DISTINCT tr.decision ORDER BY tr.decision) AS decisions
  FROM trajectories tr WHERE tr.role = 'REVIEWER' AND tr.decision IS NOT NULL AND tr.task_id IS NOT NULL
  GROUP BY tr.task_id
)
UPDATE tasks t SET decided = s.decided, decision_reasons = s.reasons, reviewer_decisions = s.decisions
FROM (
  SELECT coalesce(d.task_id, v.task_id) AS id, d.task_id IS NOT NULL AS decided,
         coalesce(d.reasons, ARRAY[]::"DecisionReason"[]) AS reasons, coalesce(v.decisions, ARRAY[]::"ReviewerDecision"[]) AS decisions
  FROM decisions d FULL JOIN reviews v ON v.task_id = d.task_id
) s
WHERE t.id = s.id;
ALTER TABLE "tasks" ENABLE TRIGGER "task_review_tallies_update", ENABLE TRIGGER "task_review_repository_tallies_update",
  ENABLE TRIGGER "task_facet_tallies_update", ENABLE TRIGGER "task_repository_tallies_update",
  ENABLE TRIGGER "analytics_rows_tasks_update";

INSERT INTO task_review_tallies (curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions, n)
SELECT curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions, count(*)
FROM tasks GROUP BY curation_status, automated_verdict, failure_class, source, kind, difficulty, decided, decision_reasons, reviewer_decisions;
INSERT INTO task_review_repository_tallies (repository_id, curation_status, decided, decision_reasons, reviewer_decisions, n)
SELECT e.repository_id, t.curation_status, t.decided, t.decision_reasons, t.reviewer_decisions, count(*)
FROM tasks t JOIN environments e ON e.id = t.environment_id
GROUP BY e.repository_id, t.curation_status, t.decided, t.decision_reasons, t.reviewer_decisions;
