-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'CURATOR', 'VIEWER');

-- CreateEnum
CREATE TYPE "TaskKind" AS ENUM ('ISSUE_FIX', 'TDD_STEP', 'TEST_GENERATION');

-- CreateEnum
CREATE TYPE "TaskSource" AS ENUM ('SWE_BENCH', 'SWE_GYM', 'SWE_SMITH', 'SWE_REBENCH', 'OPENSWE', 'SWE_FLOW', 'DEMO', 'OTHER');

-- CreateEnum
CREATE TYPE "Difficulty" AS ENUM ('EASY', 'MEDIUM', 'HARD', 'VERY_HARD');

-- CreateEnum
CREATE TYPE "AutomatedVerdict" AS ENUM ('PENDING', 'VALID', 'INVALID', 'FLAKY');

-- CreateEnum
CREATE TYPE "CurationStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED', 'NEEDS_CHANGES');

-- CreateEnum
CREATE TYPE "FailureClass" AS ENUM ('BUILD_ERROR', 'EVAL_SCRIPT_ERROR', 'TESTS_DID_NOT_RUN', 'NEGATIVE_CONTROL_PASSED', 'POSITIVE_CONTROL_FAILED', 'TIMEOUT', 'INFRA_ERROR');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "RunKind" AS ENUM ('NEGATIVE_CONTROL', 'POSITIVE_CONTROL', 'CANDIDATE');

-- CreateEnum
CREATE TYPE "TestOutcome" AS ENUM ('PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'MISSING');

-- CreateEnum
CREATE TYPE "TestGroup" AS ENUM ('FAIL_TO_PASS', 'PASS_TO_PASS', 'OTHER');

-- CreateEnum
CREATE TYPE "TrajectoryRole" AS ENUM ('SOLVER', 'REVIEWER');

-- CreateEnum
CREATE TYPE "TrajectoryFormat" AS ENUM ('SWE_AGENT', 'OPENHANDS', 'INSPECT', 'OTHER');

-- CreateEnum
CREATE TYPE "ReviewerDecision" AS ENUM ('APPROVE', 'REQUEST_CHANGES');

-- CreateEnum
CREATE TYPE "DecisionVerdict" AS ENUM ('APPROVE', 'REJECT', 'NEEDS_CHANGES');

-- CreateEnum
CREATE TYPE "DecisionReason" AS ENUM ('ISSUE_PATCH_MISALIGNED', 'SOLUTION_LEAKED_IN_ISSUE', 'TRIVIAL', 'UNSOLVABLE', 'FLAKY', 'ENVIRONMENT_BROKEN', 'TESTS_TOO_WEAK', 'OTHER');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('RUNNING', 'SUCCEEDED', 'PARTIAL', 'FAILED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "ImportFormat" AS ENUM ('SWE_BENCH_INSTANCES', 'SWE_BENCH_PREDICTIONS', 'SWE_BENCH_REPORT', 'OPENSWE_ENVIRONMENT', 'SWE_FLOW_STEPS', 'SWE_AGENT_TRAJECTORY', 'OPENHANDS_TRAJECTORY', 'INSPECT_LOG', 'REVIEWER_VERDICTS', 'UNKNOWN');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "email_verified" TIMESTAMP(3),
    "image" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "session_token" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last_used_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "repositories" (
    "id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "repositories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "environments" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "repository_id" TEXT NOT NULL,
    "base_commit" TEXT NOT NULL,
    "setup_commit" TEXT,
    "version" TEXT,
    "source" "TaskSource" NOT NULL DEFAULT 'OTHER',
    "context_files" JSONB,
    "timeout_seconds" INTEGER,
    "memory_mb" INTEGER,
    "cpus" DOUBLE PRECISION,
    "metadata" JSONB,
    "current_revision_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "environment_revisions" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "dockerfile" TEXT NOT NULL,
    "eval_script" TEXT NOT NULL,
    "reason" TEXT,
    "author_id" TEXT,
    "context_hash" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "environment_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "kind" "TaskKind" NOT NULL DEFAULT 'ISSUE_FIX',
    "source" "TaskSource" NOT NULL DEFAULT 'OTHER',
    "difficulty" "Difficulty",
    "problem_statement" TEXT NOT NULL,
    "hints_text" TEXT,
    "fix_patch" TEXT NOT NULL,
    "test_patch" TEXT NOT NULL,
    "fail_to_pass" TEXT[],
    "pass_to_pass" TEXT[],
    "automated_verdict" "AutomatedVerdict" NOT NULL DEFAULT 'PENDING',
    "failure_class" "FailureClass",
    "verdict_override" "AutomatedVerdict",
    "override_justification" TEXT,
    "curation_status" "CurationStatus" NOT NULL DEFAULT 'PENDING',
    "version" INTEGER NOT NULL DEFAULT 1,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "assignee_id" TEXT,
    "leased_by_id" TEXT,
    "lease_expires_at" TIMESTAMP(3),
    "issue_created_at" TIMESTAMP(3),
    "metadata" JSONB,
    "import_batch_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "candidate_patches" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "generator" TEXT NOT NULL,
    "patch" TEXT NOT NULL,
    "resolved" BOOLEAN,
    "metadata" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "candidate_patches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "builds" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "context_hash" TEXT,
    "image_tag" TEXT,
    "image_id" TEXT,
    "cache_hit" BOOLEAN NOT NULL DEFAULT false,
    "duration_ms" INTEGER,
    "log" TEXT,
    "error_message" TEXT,
    "worker_id" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "requested_by_id" TEXT,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "builds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "validation_runs" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "build_id" TEXT,
    "candidate_patch_id" TEXT,
    "kind" "RunKind" NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "group_id" TEXT,
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "exit_code" INTEGER,
    "marker_exit_code" INTEGER,
    "failure_class" "FailureClass",
    "flags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "resolved" BOOLEAN,
    "log" TEXT,
    "log_truncated" BOOLEAN NOT NULL DEFAULT false,
    "error_message" TEXT,
    "duration_ms" INTEGER,
    "worker_id" TEXT,
    "container_id" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "requested_by_id" TEXT,
    "import_batch_id" TEXT,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "validation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_results" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "test_id" TEXT NOT NULL,
    "group" "TestGroup" NOT NULL,
    "expected" "TestOutcome" NOT NULL,
    "actual" "TestOutcome" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "test_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "log_chunks" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT,
    "build_id" TEXT,
    "seq" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "log_chunks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "docker_ok" BOOLEAN NOT NULL,
    "docker_info" TEXT,
    "running_jobs" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectories" (
    "id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "task_id" TEXT,
    "candidate_patch_id" TEXT,
    "role" "TrajectoryRole" NOT NULL,
    "format" "TrajectoryFormat" NOT NULL,
    "model" TEXT,
    "exit_status" TEXT,
    "submission" TEXT,
    "decision" "ReviewerDecision",
    "confidence" DOUBLE PRECISION,
    "diagnosis" JSONB,
    "step_count" INTEGER NOT NULL DEFAULT 0,
    "tokens_in" INTEGER,
    "tokens_out" INTEGER,
    "cost_usd" DOUBLE PRECISION,
    "metadata" JSONB,
    "import_batch_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "trajectories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectory_steps" (
    "id" TEXT NOT NULL,
    "trajectory_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "thought" TEXT,
    "action" TEXT,
    "observation" TEXT,
    "tokens_in" INTEGER,
    "tokens_out" INTEGER,
    "duration_ms" INTEGER,
    "metadata" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "trajectory_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "curation_decisions" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "curator_id" TEXT NOT NULL,
    "verdict" "DecisionVerdict" NOT NULL,
    "reasons" "DecisionReason"[] DEFAULT ARRAY[]::"DecisionReason"[],
    "comment" TEXT,
    "overrides_automated" BOOLEAN NOT NULL DEFAULT false,
    "justification" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "curation_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_views" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_batches" (
    "id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "format" "ImportFormat" NOT NULL DEFAULT 'UNKNOWN',
    "status" "ImportStatus" NOT NULL DEFAULT 'RUNNING',
    "bytes_total" BIGINT,
    "bytes_read" BIGINT NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "error_message" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "user_id" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "import_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "actor_id" TEXT,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_role_idx" ON "users"("role");

-- CreateIndex
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_session_token_key" ON "sessions"("session_token");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_token_key" ON "verification_tokens"("token");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_identifier_token_key" ON "verification_tokens"("identifier", "token");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "repositories_owner_name_key" ON "repositories"("owner", "name");

-- CreateIndex
CREATE UNIQUE INDEX "environments_key_key" ON "environments"("key");

-- CreateIndex
CREATE UNIQUE INDEX "environments_current_revision_id_key" ON "environments"("current_revision_id");

-- CreateIndex
CREATE INDEX "environments_repository_id_idx" ON "environments"("repository_id");

-- CreateIndex
CREATE INDEX "environments_source_idx" ON "environments"("source");

-- CreateIndex
CREATE INDEX "environments_created_at_idx" ON "environments"("created_at");

-- CreateIndex
CREATE INDEX "environment_revisions_context_hash_idx" ON "environment_revisions"("context_hash");

-- CreateIndex
CREATE UNIQUE INDEX "environment_revisions_environment_id_number_key" ON "environment_revisions"("environment_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_instance_id_key" ON "tasks"("instance_id");

-- CreateIndex
CREATE INDEX "tasks_curation_status_idx" ON "tasks"("curation_status");

-- CreateIndex
CREATE INDEX "tasks_automated_verdict_idx" ON "tasks"("automated_verdict");

-- CreateIndex
CREATE INDEX "tasks_failure_class_idx" ON "tasks"("failure_class");

-- CreateIndex
CREATE INDEX "tasks_source_idx" ON "tasks"("source");

-- CreateIndex
CREATE INDEX "tasks_kind_idx" ON "tasks"("kind");

-- CreateIndex
CREATE INDEX "tasks_difficulty_idx" ON "tasks"("difficulty");

-- CreateIndex
CREATE INDEX "tasks_environment_id_idx" ON "tasks"("environment_id");

-- CreateIndex
CREATE INDEX "tasks_created_at_idx" ON "tasks"("created_at");

-- CreateIndex
CREATE INDEX "tasks_lease_expires_at_idx" ON "tasks"("lease_expires_at");

-- CreateIndex
CREATE INDEX "candidate_patches_resolved_idx" ON "candidate_patches"("resolved");

-- CreateIndex
CREATE UNIQUE INDEX "candidate_patches_task_id_generator_key" ON "candidate_patches"("task_id", "generator");

-- CreateIndex
CREATE INDEX "builds_status_idx" ON "builds"("status");

-- CreateIndex
CREATE INDEX "builds_revision_id_idx" ON "builds"("revision_id");

-- CreateIndex
CREATE INDEX "builds_context_hash_idx" ON "builds"("context_hash");

-- CreateIndex
CREATE INDEX "builds_created_at_idx" ON "builds"("created_at");

-- CreateIndex
CREATE INDEX "validation_runs_task_id_created_at_idx" ON "validation_runs"("task_id", "created_at");

-- CreateIndex
CREATE INDEX "validation_runs_status_idx" ON "validation_runs"("status");

-- CreateIndex
CREATE INDEX "validation_runs_group_id_idx" ON "validation_runs"("group_id");

-- CreateIndex
CREATE INDEX "validation_runs_candidate_patch_id_idx" ON "validation_runs"("candidate_patch_id");

-- CreateIndex
CREATE UNIQUE INDEX "test_results_run_id_test_id_key" ON "test_results"("run_id", "test_id");

-- CreateIndex
CREATE INDEX "log_chunks_run_id_seq_idx" ON "log_chunks"("run_id", "seq");

-- CreateIndex
CREATE INDEX "log_chunks_build_id_seq_idx" ON "log_chunks"("build_id", "seq");

-- CreateIndex
CREATE INDEX "worker_heartbeats_last_seen_at_idx" ON "worker_heartbeats"("last_seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "trajectories_external_id_key" ON "trajectories"("external_id");

-- CreateIndex
CREATE INDEX "trajectories_task_id_idx" ON "trajectories"("task_id");

-- CreateIndex
CREATE INDEX "trajectories_role_idx" ON "trajectories"("role");

-- CreateIndex
CREATE INDEX "trajectories_decision_idx" ON "trajectories"("decision");

-- CreateIndex
CREATE INDEX "trajectories_created_at_idx" ON "trajectories"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "trajectory_steps_trajectory_id_index_key" ON "trajectory_steps"("trajectory_id", "index");

-- CreateIndex
CREATE INDEX "curation_decisions_task_id_created_at_idx" ON "curation_decisions"("task_id", "created_at");

-- CreateIndex
CREATE INDEX "curation_decisions_curator_id_idx" ON "curation_decisions"("curator_id");

-- CreateIndex
CREATE INDEX "curation_decisions_verdict_idx" ON "curation_decisions"("verdict");

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_user_id_scope_name_key" ON "saved_views"("user_id", "scope", "name");

-- CreateIndex
CREATE INDEX "import_batches_status_idx" ON "import_batches"("status");

-- CreateIndex
CREATE INDEX "import_batches_created_at_idx" ON "import_batches"("created_at");

-- CreateIndex
CREATE INDEX "audit_events_entity_type_entity_id_created_at_idx" ON "audit_events"("entity_type", "entity_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_actor_id_idx" ON "audit_events"("actor_id");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environments" ADD CONSTRAINT "environments_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repositories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environments" ADD CONSTRAINT "environments_current_revision_id_fkey" FOREIGN KEY ("current_revision_id") REFERENCES "environment_revisions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environment_revisions" ADD CONSTRAINT "environment_revisions_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environment_revisions" ADD CONSTRAINT "environment_revisions_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_leased_by_id_fkey" FOREIGN KEY ("leased_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_import_batch_id_fkey" FOREIGN KEY ("import_batch_id") REFERENCES "import_batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "candidate_patches" ADD CONSTRAINT "candidate_patches_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "builds" ADD CONSTRAINT "builds_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "environment_revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "validation_runs" ADD CONSTRAINT "validation_runs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "validation_runs" ADD CONSTRAINT "validation_runs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "environment_revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "validation_runs" ADD CONSTRAINT "validation_runs_build_id_fkey" FOREIGN KEY ("build_id") REFERENCES "builds"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "validation_runs" ADD CONSTRAINT "validation_runs_candidate_patch_id_fkey" FOREIGN KEY ("candidate_patch_id") REFERENCES "candidate_patches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_results" ADD CONSTRAINT "test_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "validation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "log_chunks" ADD CONSTRAINT "log_chunks_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "validation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectories" ADD CONSTRAINT "trajectories_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectories" ADD CONSTRAINT "trajectories_candidate_patch_id_fkey" FOREIGN KEY ("candidate_patch_id") REFERENCES "candidate_patches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory_steps" ADD CONSTRAINT "trajectory_steps_trajectory_id_fkey" FOREIGN KEY ("trajectory_id") REFERENCES "trajectories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "curation_decisions" ADD CONSTRAINT "curation_decisions_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "curation_decisions" ADD CONSTRAINT "curation_decisions_curator_id_fkey" FOREIGN KEY ("curator_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
