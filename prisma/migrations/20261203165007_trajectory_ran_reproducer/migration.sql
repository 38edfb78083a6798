-- AlterTable
ALTER TABLE "trajectories" ADD COLUMN     "ran_reproducer" BOOLEAN;

-- Backfill by the rule of lib/trajectories/reproducer.ts as it stands at this migration: a
-- kind the step recorded wins, else a command that starts an interpreter or a test runner
-- (not an install or a version check). New imports set the flag as they write the steps.
-- (the pattern says \x3b for a semicolon: the migration runner splits statements at each one)
UPDATE "trajectories" tr SET "ran_reproducer" = flags.ran
FROM (
  SELECT s.trajectory_id, bool_or(
    CASE WHEN coalesce(s.metadata->>'kind', '') <> '' THEN lower(s.metadata->>'kind') = ANY (ARRAY['reproduce', 'reproducer', 'run_tests', 'test', 'execute'])
         WHEN s.action IS NULL THEN FALSE
         ELSE s.action ~* '(?:^|[\s\x3b&|(`])(?:python[0-9.]*|pytest|py\.test|tox|nosetests|node|ruby|go\s+test|cargo\s+test|npm\s+(?:run\s+)?test|mvn\s+test|gradle\s+test|(?:ba)?sh\s+\S+\.sh)(?=[\s\x3b&|)`]|$)'
              AND s.action !~* '(?:^|\s)(?:-m\s+pip|pip[0-9.]*\s+install|--version|-V(?:\s|$))'
    END) AS ran
  FROM "trajectory_steps" s GROUP BY s.trajectory_id
) flags
WHERE flags.trajectory_id = tr.id;
