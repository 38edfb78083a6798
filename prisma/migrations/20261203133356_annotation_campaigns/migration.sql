-- CreateEnum
CREATE TYPE "CampaignCombination" AS ENUM ('MOST_SEVERE', 'MAJORITY', 'MEAN');

-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('ACTIVE', 'CLOSED');

-- CreateTable
CREATE TABLE "rubrics" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rubrics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rubric_versions" (
    "id" TEXT NOT NULL,
    "rubric_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "questions" JSONB NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rubric_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rubric_version_id" TEXT NOT NULL,
    "overlap" INTEGER NOT NULL,
    "combination" "CampaignCombination" NOT NULL DEFAULT 'MOST_SEVERE',
    "drop_rule" JSONB NOT NULL,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "hide_verdict" BOOLEAN NOT NULL DEFAULT true,
    "gold_threshold" DOUBLE PRECISION,
    "view_query" TEXT NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'ACTIVE',
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_tasks" (
    "campaign_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "gold" BOOLEAN NOT NULL DEFAULT false,
    "reference" JSONB,
    "explanation" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_tasks_pkey" PRIMARY KEY ("campaign_id","task_id")
);

-- CreateTable
CREATE TABLE "campaign_annotators" (
    "campaign_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "gold_passed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_annotators_pkey" PRIMARY KEY ("campaign_id","user_id")
);

-- CreateTable
CREATE TABLE "campaign_labels" (
    "id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "annotator_id" TEXT NOT NULL,
    "rubric_version_id" TEXT NOT NULL,
    "gold" BOOLEAN NOT NULL DEFAULT false,
    "answers" JSONB,
    "opened_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "submitted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_adjudications" (
    "id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "adjudicator_id" TEXT NOT NULL,
    "answers" JSONB NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_adjudications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rubrics_name_key" ON "rubrics"("name");

-- CreateIndex
CREATE UNIQUE INDEX "rubric_versions_rubric_id_version_key" ON "rubric_versions"("rubric_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "campaigns_name_key" ON "campaigns"("name");

-- CreateIndex
CREATE INDEX "campaign_tasks_task_id_idx" ON "campaign_tasks"("task_id");

-- CreateIndex
CREATE INDEX "campaign_annotators_user_id_idx" ON "campaign_annotators"("user_id");

-- CreateIndex
CREATE INDEX "campaign_labels_campaign_id_submitted_at_idx" ON "campaign_labels"("campaign_id", "submitted_at");

-- CreateIndex
CREATE INDEX "campaign_labels_annotator_id_idx" ON "campaign_labels"("annotator_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_labels_campaign_id_task_id_annotator_id_key" ON "campaign_labels"("campaign_id", "task_id", "annotator_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_adjudications_campaign_id_task_id_key" ON "campaign_adjudications"("campaign_id", "task_id");

-- AddForeignKey
ALTER TABLE "rubric_versions" ADD CONSTRAINT "rubric_versions_rubric_id_fkey" FOREIGN KEY ("rubric_id") REFERENCES "rubrics"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_rubric_version_id_fkey" FOREIGN KEY ("rubric_version_id") REFERENCES "rubric_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_tasks" ADD CONSTRAINT "campaign_tasks_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_tasks" ADD CONSTRAINT "campaign_tasks_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_annotators" ADD CONSTRAINT "campaign_annotators_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_annotators" ADD CONSTRAINT "campaign_annotators_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_labels" ADD CONSTRAINT "campaign_labels_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_labels" ADD CONSTRAINT "campaign_labels_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_labels" ADD CONSTRAINT "campaign_labels_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_labels" ADD CONSTRAINT "campaign_labels_rubric_version_id_fkey" FOREIGN KEY ("rubric_version_id") REFERENCES "rubric_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_adjudications" ADD CONSTRAINT "campaign_adjudications_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_adjudications" ADD CONSTRAINT "campaign_adjudications_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_adjudications" ADD CONSTRAINT "campaign_adjudications_adjudicator_id_fkey" FOREIGN KEY ("adjudicator_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
