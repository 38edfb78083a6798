-- CreateTable
CREATE TABLE "task_facet_tallies" (
    "id" BIGSERIAL NOT NULL,
    "curation_status" "CurationStatus" NOT NULL,
    "automated_verdict" "AutomatedVerdict" NOT NULL,
    "failure_class" "FailureClass",
    "source" "TaskSource" NOT NULL,
    "kind" "TaskKind" NOT NULL,
    "difficulty" "Difficulty",
    "n" INTEGER NOT NULL,

    CONSTRAINT "task_facet_tallies_pkey" PRIMARY KEY ("id")
);

-- Every change to tasks appends its signed counts per combination of the six facet columns,
-- one row per combination a statement touched. Appending never waits on another writer (a
-- counter row per combination would serialise every decision on it, and could deadlock two
-- transactions that move tasks in opposite directions). lib/tasks/facet-tallies.ts sums the
-- rows when it reads and folds them together now and then.
-- the inserted tasks count up, the deleted ones down (both triggers name their rows "changed")
CREATE FUNCTION "task_facet_tallies_on_insert_or_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_facet_tallies (curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
  SELECT curation_status, automated_verdict, failure_class, source, kind, difficulty,
         CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END
  FROM changed GROUP BY curation_status, automated_verdict, failure_class, source, kind, difficulty;
  RETURN NULL;
END $$;

-- only the tasks whose facet columns changed: an edit of labels or a version bump appends nothing
CREATE FUNCTION "task_facet_tallies_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_facet_tallies (curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
  SELECT curation_status, automated_verdict, failure_class, source, kind, difficulty, sum(n)
  FROM (
    SELECT o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty, -1 AS n
    FROM removed o JOIN added a ON a.id = o.id
    WHERE (o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty)
          IS DISTINCT FROM (a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty)
    UNION ALL
    SELECT a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty, 1 AS n
    FROM removed o JOIN added a ON a.id = o.id
    WHERE (o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty)
          IS DISTINCT FROM (a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty)
  ) changed
  GROUP BY curation_status, automated_verdict, failure_class, source, kind, difficulty
  HAVING sum(n) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "task_facet_tallies_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM task_facet_tallies;
  RETURN NULL;
END $$;

CREATE TRIGGER "task_facet_tallies_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "task_facet_tallies_on_insert_or_delete"();
CREATE TRIGGER "task_facet_tallies_update" AFTER UPDATE ON "tasks" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "task_facet_tallies_on_update"();
CREATE TRIGGER "task_facet_tallies_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "task_facet_tallies_on_insert_or_delete"();
CREATE TRIGGER "task_facet_tallies_truncate" AFTER TRUNCATE ON "tasks"
  FOR EACH STATEMENT EXECUTE FUNCTION "task_facet_tallies_on_truncate"();

-- the tasks already there
INSERT INTO task_facet_tallies (curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
SELECT curation_status, automated_verdict, failure_class, source, kind, difficulty, count(*)
FROM tasks GROUP BY curation_status, automated_verdict, failure_class, source, kind, difficulty;
