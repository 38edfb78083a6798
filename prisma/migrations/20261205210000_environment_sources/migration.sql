-- CreateEnum
CREATE TYPE "ImageSource" AS ENUM ('RECIPE', 'IMAGE', 'SPEC', 'NONE');

-- AlterTable
ALTER TABLE "environments" ADD COLUMN "image_source" "ImageSource" NOT NULL DEFAULT 'RECIPE',
ADD COLUMN "image_reference" TEXT,
ADD COLUMN "image_digest" TEXT,
ADD COLUMN "image_id" TEXT;

-- AlterTable
ALTER TABLE "import_batches" ADD COLUMN "environment_sources" JSONB;

-- CreateIndex
CREATE INDEX "environments_image_source_idx" ON "environments"("image_source");

-- Environments imported with the placeholder recipe had nothing usable: they become IMAGE when
-- their dataset names an image (the environment's metadata, or a task row's image_name /
-- docker_image, or SWE-bench's and SWE-Gym's per-instance naming), NONE otherwise.
WITH named AS (
  SELECT e.id, COALESCE(
    NULLIF(e.metadata->>'image', ''),
    (SELECT COALESCE(NULLIF(t.metadata->>'image_name', ''), NULLIF(t.metadata->>'docker_image', ''))
       FROM tasks t WHERE t.environment_id = e.id
       AND COALESCE(NULLIF(t.metadata->>'image_name', ''), NULLIF(t.metadata->>'docker_image', '')) IS NOT NULL
       ORDER BY t.instance_id LIMIT 1),
    (SELECT CASE t.source
       WHEN 'SWE_BENCH' THEN replace('swebench/sweb.eval.x86_64.' || lower(t.instance_id), '__', '_1776_') || ':latest'
       WHEN 'SWE_GYM' THEN 'xingyaoww/sweb.eval.x86_64.' || replace(lower(t.instance_id), '__', '_s_') || ':latest'
       END
       FROM tasks t WHERE t.environment_id = e.id AND t.source IN ('SWE_BENCH', 'SWE_GYM')
       ORDER BY t.instance_id LIMIT 1)
  ) AS image
  FROM environments e
  WHERE e.metadata->>'placeholderRecipe' = 'true'
)
UPDATE environments e
SET image_source = CASE WHEN named.image IS NULL THEN 'NONE'::"ImageSource" ELSE 'IMAGE'::"ImageSource" END,
    image_reference = named.image
FROM named
WHERE named.id = e.id;
