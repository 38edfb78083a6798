-- AlterTable
ALTER TABLE "curation_decisions" ADD COLUMN     "evidence" JSONB,
ADD COLUMN     "evidence_fingerprint" TEXT,
ADD COLUMN     "stale_at" TIMESTAMP(3),
ADD COLUMN     "stale_parts" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "stale_reason" TEXT;

-- CreateTable
CREATE TABLE "releases" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "query" TEXT NOT NULL,
    "task_count" INTEGER NOT NULL,
    "created_by_id" TEXT,
    "created_by_email" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "releases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "release_tasks" (
    "release_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "evidence" JSONB NOT NULL,
    "evidence_fingerprint" TEXT NOT NULL,
    "verdicts" JSONB NOT NULL,
    "decisions" JSONB NOT NULL,
    "curation_status" "CurationStatus" NOT NULL,

    CONSTRAINT "release_tasks_pkey" PRIMARY KEY ("release_id","task_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "releases_name_key" ON "releases"("name");

-- CreateIndex
CREATE INDEX "releases_created_at_id_idx" ON "releases"("created_at", "id");

-- CreateIndex
CREATE INDEX "release_tasks_task_id_idx" ON "release_tasks"("task_id");

-- AddForeignKey
ALTER TABLE "release_tasks" ADD CONSTRAINT "release_tasks_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "releases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ─── The evidence a decision is made on, in one place ───
-- lib/curation/evidence.ts reads it through task_evidence() when a decision is recorded, and the
-- triggers below compare it again whenever one of its sources is written. The sources are
-- written by many paths (a saved revision, a pull pinning a digest, a re-pin, a worker settling a
-- run, an import writing runs or candidate patches, raw SQL): triggers see every one of them, so
-- no write path can change the evidence without its decisions going stale.

-- a run's verdict as one readable string: status, failure class, resolved
CREATE FUNCTION "run_verdict"(status "JobStatus", failure_class "FailureClass", resolved BOOLEAN) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT status::text || COALESCE(':' || failure_class::text, '')
      || CASE WHEN resolved THEN ':resolved' WHEN NOT resolved THEN ':unresolved' ELSE '' END
$$;

-- the latest finished run of each kind (negative, positive, candidate): its id and verdict
CREATE FUNCTION "task_latest_runs"(p_task_id TEXT) RETURNS JSONB LANGUAGE sql STABLE AS $$
  WITH latest AS (
    SELECT DISTINCT ON (r.kind) r.kind, r.id, run_verdict(r.status, r.failure_class, r.resolved) AS verdict
    FROM validation_runs r
    WHERE r.task_id = p_task_id AND r.status IN ('SUCCEEDED', 'FAILED')
    ORDER BY r.kind, r.finished_at DESC NULLS LAST, r.created_at DESC, r.id DESC
  )
  SELECT jsonb_build_object(
    'negative', (SELECT jsonb_build_object('runId', id, 'verdict', verdict) FROM latest WHERE kind = 'NEGATIVE_CONTROL'),
    'positive', (SELECT jsonb_build_object('runId', id, 'verdict', verdict) FROM latest WHERE kind = 'POSITIVE_CONTROL'),
    'candidateRun', (SELECT jsonb_build_object('runId', id, 'verdict', verdict) FROM latest WHERE kind = 'CANDIDATE'))
$$;

-- the controls' verdicts without their run ids: a rerun that agrees is no flip
CREATE FUNCTION "task_control_verdicts"(p_task_id TEXT) RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('negative', runs->'negative'->'verdict', 'positive', runs->'positive'->'verdict', 'candidateRun', runs->'candidateRun'->'verdict')
  FROM task_latest_runs(p_task_id) runs
$$;

-- everything a decision is made on; null when the task does not exist
CREATE FUNCTION "task_evidence"(p_task_id TEXT) RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'recipe', CASE WHEN rev.id IS NULL THEN NULL ELSE jsonb_build_object('revisionId', rev.id, 'number', rev.number, 'contextHash', rev.context_hash) END,
    'image', to_jsonb(e.image_digest),
    'candidatePatch', (
      SELECT encode(sha256(convert_to(string_agg(c.generator || E'\n' || c.patch, E'\n\x1e\n' ORDER BY c.generator), 'UTF8')), 'hex')
      FROM candidate_patches c WHERE c.task_id = t.id HAVING count(*) > 0)
  ) || task_latest_runs(t.id)
  FROM tasks t
  JOIN environments e ON e.id = t.environment_id
  LEFT JOIN environment_revisions rev ON rev.id = e.current_revision_id
  WHERE t.id = p_task_id
$$;

-- jsonb's text form is canonical (keys in a fixed order), so equal evidence hashes equally
CREATE FUNCTION "evidence_fingerprint"(evidence JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(evidence::text, 'UTF8')), 'hex')
$$;

-- which parts of two evidence documents differ
CREATE FUNCTION "evidence_changed_parts"(before JSONB, after JSONB) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(array_agg(part ORDER BY ord), ARRAY[]::TEXT[])
  FROM unnest(ARRAY['recipe', 'image', 'negative', 'positive', 'candidateRun', 'candidatePatch']) WITH ORDINALITY AS p(part, ord)
  WHERE before->part IS DISTINCT FROM after->part
$$;

-- one sentence per changed part, for the queue, the task page and the audit trail
CREATE FUNCTION "evidence_change_reason"(before JSONB, after JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  part TEXT;
  sentences TEXT[] := ARRAY[]::TEXT[];
  label TEXT;
BEGIN
  FOREACH part IN ARRAY evidence_changed_parts(before, after) LOOP
    IF part = 'recipe' THEN
      sentences := sentences || format('the recipe changed (revision %s → %s)',
        COALESCE(before->'recipe'->>'number', 'none'), COALESCE(after->'recipe'->>'number', 'none'));
    ELSIF part = 'image' THEN
      sentences := sentences || format('the image was re-pinned (%s → %s)',
        COALESCE(left(before->>'image', 19), 'not pinned'), COALESCE(left(after->>'image', 19), 'not pinned'));
    ELSIF part = 'candidatePatch' THEN
      sentences := sentences || 'the candidate patches changed'::TEXT;
    ELSE
      label := CASE part WHEN 'negative' THEN 'negative control' WHEN 'positive' THEN 'positive control' ELSE 'candidate run' END;
      IF before->part->'verdict' IS DISTINCT FROM after->part->'verdict' THEN
        sentences := sentences || format('the %s verdict changed (%s → %s)', label,
          COALESCE(before->part->>'verdict', 'none'), COALESCE(after->part->>'verdict', 'none'));
      ELSE
        sentences := sentences || format('a new %s run finished (verdict unchanged: %s)', label, COALESCE(after->part->>'verdict', 'none'));
      END IF;
    END IF;
  END LOOP;
  RETURN array_to_string(sentences, '; ');
END $$;

-- Marks the task's fresh decisions whose evidence differs from the task's evidence now as stale
-- (which parts, why), returns the task to the review queue (PENDING: a stale decision no longer
-- counts) and audits it. No version bump: Task.version guards people's edits, as for verdicts.
CREATE FUNCTION "mark_stale_decisions"(p_task_id TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  current JSONB;
  decision RECORD;
  parts TEXT[];
  reason TEXT;
  marked TEXT[] := ARRAY[]::TEXT[];
  all_parts TEXT[] := ARRAY[]::TEXT[];
  reasons TEXT[] := ARRAY[]::TEXT[];
  status_before "CurationStatus";
BEGIN
  IF NOT EXISTS (SELECT 1 FROM curation_decisions WHERE task_id = p_task_id AND stale_at IS NULL AND evidence IS NOT NULL) THEN
    RETURN;
  END IF;
  current := task_evidence(p_task_id);
  IF current IS NULL THEN
    RETURN;
  END IF;
  FOR decision IN
    SELECT id, evidence FROM curation_decisions
    WHERE task_id = p_task_id AND stale_at IS NULL AND evidence IS NOT NULL
    ORDER BY created_at FOR UPDATE
  LOOP
    parts := evidence_changed_parts(decision.evidence, current);
    CONTINUE WHEN cardinality(parts) = 0;
    reason := evidence_change_reason(decision.evidence, current);
    UPDATE curation_decisions
      SET stale_at = (now() AT TIME ZONE 'UTC'), stale_parts = parts, stale_reason = reason, updated_at = (now() AT TIME ZONE 'UTC')
      WHERE id = decision.id;
    marked := marked || decision.id;
    all_parts := all_parts || ARRAY(SELECT unnest(parts) EXCEPT SELECT unnest(all_parts));
    IF NOT reason = ANY(reasons) THEN reasons := reasons || reason; END IF;
  END LOOP;
  IF cardinality(marked) = 0 THEN
    RETURN;
  END IF;
  SELECT curation_status INTO status_before FROM tasks WHERE id = p_task_id;
  IF NOT EXISTS (SELECT 1 FROM curation_decisions WHERE task_id = p_task_id AND stale_at IS NULL) THEN
    UPDATE tasks SET curation_status = 'PENDING', updated_at = (now() AT TIME ZONE 'UTC') WHERE id = p_task_id AND curation_status <> 'PENDING';
  END IF;
  INSERT INTO audit_events (id, actor_id, entity_type, entity_id, action, before, after, created_at, updated_at)
  VALUES (gen_random_uuid()::text, NULL, 'task', p_task_id, 'task.decisions_stale',
    jsonb_build_object('curationStatus', status_before),
    jsonb_build_object('curationStatus', (SELECT curation_status FROM tasks WHERE id = p_task_id), 'reason', array_to_string(reasons, '; '),
      'parts', to_jsonb(all_parts), 'decisionIds', to_jsonb(marked)),
    (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'));
END $$;

-- a recipe revision saved (current_revision_id) or the image (re-)pinned: every task of the environment
CREATE FUNCTION "stale_decisions_on_environment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mark_stale_decisions(task_id) FROM (
    SELECT DISTINCT d.task_id FROM curation_decisions d JOIN tasks t ON t.id = d.task_id
    WHERE t.environment_id = NEW.id AND d.stale_at IS NULL AND d.evidence IS NOT NULL) fresh;
  RETURN NULL;
END $$;
CREATE TRIGGER "curation_decisions_stale_on_environment" AFTER UPDATE OF current_revision_id, image_digest ON environments
  FOR EACH ROW WHEN (OLD.current_revision_id IS DISTINCT FROM NEW.current_revision_id OR OLD.image_digest IS DISTINCT FROM NEW.image_digest)
  EXECUTE FUNCTION stale_decisions_on_environment();

-- a run finished (or its result was rewritten, or an import wrote a finished run)
CREATE FUNCTION "stale_decisions_on_run"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mark_stale_decisions(NEW.task_id);
  RETURN NULL;
END $$;
CREATE TRIGGER "curation_decisions_stale_on_run_insert" AFTER INSERT ON validation_runs
  FOR EACH ROW WHEN (NEW.status IN ('SUCCEEDED', 'FAILED'))
  EXECUTE FUNCTION stale_decisions_on_run();
CREATE TRIGGER "curation_decisions_stale_on_run_update" AFTER UPDATE OF status, resolved, failure_class ON validation_runs
  FOR EACH ROW WHEN (NEW.status IN ('SUCCEEDED', 'FAILED')
    AND (OLD.status, OLD.resolved, OLD.failure_class) IS DISTINCT FROM (NEW.status, NEW.resolved, NEW.failure_class))
  EXECUTE FUNCTION stale_decisions_on_run();

-- a candidate patch added, rewritten or removed
CREATE FUNCTION "stale_decisions_on_candidate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mark_stale_decisions(CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END);
  RETURN NULL;
END $$;
CREATE TRIGGER "curation_decisions_stale_on_candidate" AFTER INSERT OR DELETE OR UPDATE OF patch ON candidate_patches
  FOR EACH ROW EXECUTE FUNCTION stale_decisions_on_candidate();

-- decisions made before this migration were made on the evidence there is now
UPDATE curation_decisions SET evidence = task_evidence(task_id);
UPDATE curation_decisions SET evidence_fingerprint = evidence_fingerprint(evidence) WHERE evidence IS NOT NULL;

-- ─── Releases are immutable ───
-- A release is what was published; changing one afterwards would make its diff and its export
-- lie. The database refuses it for every client (the API has no route that would try).
CREATE FUNCTION "refuse_release_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Releases are immutable: % on % refused; create a new release instead', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER "releases_immutable" BEFORE UPDATE OR DELETE ON releases
  FOR EACH ROW EXECUTE FUNCTION refuse_release_change();
CREATE TRIGGER "release_tasks_immutable" BEFORE UPDATE OR DELETE ON release_tasks
  FOR EACH ROW EXECUTE FUNCTION refuse_release_change();
