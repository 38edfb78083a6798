-- CreateTable
CREATE TABLE "task_repository_tallies" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" TEXT NOT NULL,
    "curation_status" "CurationStatus" NOT NULL,
    "automated_verdict" "AutomatedVerdict" NOT NULL,
    "failure_class" "FailureClass",
    "source" "TaskSource" NOT NULL,
    "kind" "TaskKind" NOT NULL,
    "difficulty" "Difficulty",
    "n" INTEGER NOT NULL,

    CONSTRAINT "task_repository_tallies_pkey" PRIMARY KEY ("id")
);

-- The task facet tallies (migration 20261205040000) per repository as well: the task list's top
-- repositories, and the facets under a repository filter, sum these rows instead of counting
-- every task (at a million tasks the count read the whole facet index). Appended the same way,
-- signed, one row per combination a statement touched; lib/tasks/facet-tallies.ts folds them.
-- A task's repository is its environment's: the triggers join environments, which a task's
-- delete cannot outlive (tasks restrict their environment's delete).
CREATE FUNCTION "task_repository_tallies_on_insert_or_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_repository_tallies (repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
  SELECT e.repository_id, c.curation_status, c.automated_verdict, c.failure_class, c.source, c.kind, c.difficulty,
         CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END
  FROM changed c JOIN environments e ON e.id = c.environment_id
  GROUP BY e.repository_id, c.curation_status, c.automated_verdict, c.failure_class, c.source, c.kind, c.difficulty;
  RETURN NULL;
END $$;

-- only the tasks whose facet columns or environment changed
CREATE FUNCTION "task_repository_tallies_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_repository_tallies (repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
  SELECT repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty, sum(n)
  FROM (
    SELECT eo.repository_id, o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty, -1 AS n
    FROM removed o JOIN added a ON a.id = o.id JOIN environments eo ON eo.id = o.environment_id
    WHERE (o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty, o.environment_id)
          IS DISTINCT FROM (a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty, a.environment_id)
    UNION ALL
    SELECT ea.repository_id, a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty, 1 AS n
    FROM removed o JOIN added a ON a.id = o.id JOIN environments ea ON ea.id = a.environment_id
    WHERE (o.curation_status, o.automated_verdict, o.failure_class, o.source, o.kind, o.difficulty, o.environment_id)
          IS DISTINCT FROM (a.curation_status, a.automated_verdict, a.failure_class, a.source, a.kind, a.difficulty, a.environment_id)
  ) changed
  GROUP BY repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty
  HAVING sum(n) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "task_repository_tallies_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM task_repository_tallies;
  RETURN NULL;
END $$;

-- an environment moved to another repository takes its tasks' counts with it
CREATE FUNCTION "task_repository_tallies_on_environment_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_repository_tallies (repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
  SELECT moved.repository_id, t.curation_status, t.automated_verdict, t.failure_class, t.source, t.kind, t.difficulty, sum(moved.sign)
  FROM (
    SELECT o.id, o.repository_id, -1 AS sign FROM removed o JOIN added a ON a.id = o.id WHERE o.repository_id <> a.repository_id
    UNION ALL
    SELECT a.id, a.repository_id, 1 AS sign FROM removed o JOIN added a ON a.id = o.id WHERE o.repository_id <> a.repository_id
  ) moved JOIN tasks t ON t.environment_id = moved.id
  GROUP BY moved.repository_id, t.curation_status, t.automated_verdict, t.failure_class, t.source, t.kind, t.difficulty
  HAVING sum(moved.sign) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "task_repository_tallies_insert" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "task_repository_tallies_on_insert_or_delete"();
CREATE TRIGGER "task_repository_tallies_update" AFTER UPDATE ON "tasks" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "task_repository_tallies_on_update"();
CREATE TRIGGER "task_repository_tallies_delete" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "task_repository_tallies_on_insert_or_delete"();
CREATE TRIGGER "task_repository_tallies_truncate" AFTER TRUNCATE ON "tasks"
  FOR EACH STATEMENT EXECUTE FUNCTION "task_repository_tallies_on_truncate"();
CREATE TRIGGER "task_repository_tallies_environment_update" AFTER UPDATE ON "environments" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "task_repository_tallies_on_environment_update"();

-- the tasks already there
INSERT INTO task_repository_tallies (repository_id, curation_status, automated_verdict, failure_class, source, kind, difficulty, n)
SELECT e.repository_id, t.curation_status, t.automated_verdict, t.failure_class, t.source, t.kind, t.difficulty, count(*)
FROM tasks t JOIN environments e ON e.id = t.environment_id
GROUP BY e.repository_id, t.curation_status, t.automated_verdict, t.failure_class, t.source, t.kind, t.difficulty;
