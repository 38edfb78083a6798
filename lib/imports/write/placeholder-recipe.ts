import type { ImageSource } from "../../db/client";
import type { TaskRecord } from "../records/task-record";
import { datasetImageName } from "../../environments/dataset-images";
import { specAvailable, specSourceOfRun } from "../../environments/spec-instance";

// SWE-bench instances carry no Dockerfile: the harness derives one from its per-repo
// specs. The environment still needs a revision, so it gets this placeholder — marked in
// the revision's reason and the environment's metadata, and failing loudly if built or run,
// so nobody mistakes it for a real recipe.

export const PLACEHOLDER_REASON =
  "PLACEHOLDER: imported without a build recipe; replace the Dockerfile and eval script before validating";
export const PLACEHOLDER_MARKER = "SWE-CURATOR PLACEHOLDER";

export const publishedImageReason = (image: string) =>
  `IMAGE: runs the published image ${image}, pinned by digest on its first pull; the eval script is derived from each task`;

export type RecordSource = { imageSource: ImageSource; imageReference: string | null };

/**
 * How a record's environment gets its image, picked on import: the recipe the file carries; else
 * the published image the row names or its dataset's convention gives (SWE-bench, SWE-Gym); else
 * the harness's specs when they know the repository and version (or the row's install_config);
 * else nothing yet (NONE: never offered for validation until a way forward is taken).
 */
export function sourceOfRecord(record: TaskRecord): RecordSource {
  if (record.environment.recipe) return { imageSource: "RECIPE", imageReference: null };
  const image = datasetImageName({
    source: record.task.source,
    instanceId: record.instanceId,
    metadata: [record.task.metadata, record.environment.metadata],
  });
  if (image) return { imageSource: "IMAGE", imageReference: image };
  const spec = specSourceOfRun(
    { instanceId: record.instanceId, ...record.task },
    { ...record.environment, repository: record.repository },
  );
  return { imageSource: specAvailable(spec) ? "SPEC" : "NONE", imageReference: null };
}

export function placeholderRecipe(record: TaskRecord) {
  const { repository, environment } = record;
  const image = sourceOfRecord(record).imageReference;
  const dockerfile = [
    `# ${PLACEHOLDER_MARKER} — not a real build recipe.`,
    `# Imported from ${record.task.source} data for ${repository.owner}/${repository.name} at ${environment.baseCommit}`,
    environment.setupCommit
      ? `# (environment_setup_commit ${environment.setupCommit}, version ${environment.version ?? "?"}).`
      : "#",
    image ? `# The dataset names a prebuilt image: ${image}` : "# The dataset names no prebuilt image.",
    "# Write the real Dockerfile (a new revision) before building.",
    image ? `FROM ${image}` : "FROM scratch",
    `RUN echo "${PLACEHOLDER_MARKER}: this environment has no real Dockerfile yet" >&2 && exit 1`,
    "",
  ].join("\n");
  const evalScript = [
    "#!/bin/bash",
    `# ${PLACEHOLDER_MARKER} — not a real eval script. Replace it with one that applies the`,
    "# test patch, runs the FAIL_TO_PASS / PASS_TO_PASS tests between the markers and",
    "# prints OPENSWE_EXIT_CODE=<rc>.",
    `echo "${PLACEHOLDER_MARKER}: this environment has no real eval script yet" >&2`,
    "exit 2",
    "",
  ].join("\n");
  return { dockerfile, evalScript };
}
