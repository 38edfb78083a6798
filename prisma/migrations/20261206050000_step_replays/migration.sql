-- CreateTable: a replay of a trajectory's actions up to one step in a fresh container (lib/trajectories/replay)
CREATE TABLE "step_replays" (
    "id" TEXT NOT NULL,
    "trajectory_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'QUEUED',
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "worker_id" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "actions_total" INTEGER NOT NULL DEFAULT 0,
    "actions_done" INTEGER NOT NULL DEFAULT 0,
    "results" JSONB,
    "error_message" TEXT,
    "requested_by_id" TEXT,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "step_replays_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "step_replays_trajectory_id_step_index_created_at_idx" ON "step_replays"("trajectory_id", "step_index", "created_at");

-- AddForeignKey
ALTER TABLE "step_replays" ADD CONSTRAINT "step_replays_trajectory_id_fkey" FOREIGN KEY ("trajectory_id") REFERENCES "trajectories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
