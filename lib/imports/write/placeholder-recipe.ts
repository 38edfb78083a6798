import type { TaskRecord } from "../formats/task-record";

// SWE-bench instances carry no Dockerfile: the harness derives one from its per-repo
// specs. The environment still needs a revision, so it gets this placeholder — marked in
// the revision's reason and the environment's metadata, and failing loudly if built or run,
// so nobody mistakes it for a real recipe.

export const PLACEHOLDER_REASON = "PLACEHOLDER: imported without a build recipe; replace the Dockerfile and eval script before validating";
export const PLACEHOLDER_MARKER = "SWE-CURATOR PLACEHOLDER";

export function placeholderRecipe(record: TaskRecord) {
  const { repository, environment } = record;
  const image = [record.task.metadata?.image_name, record.task.metadata?.docker_image, environment.metadata?.image].find((v): v is string => typeof v === "string" && !!v);
  const dockerfile = [
    `# ${PLACEHOLDER_MARKER} — not a real build recipe.`,
    `# Imported from ${record.task.source} data for ${repository.owner}/${repository.name} at ${environment.baseCommit}`,
    environment.setupCommit ? `# (environment_setup_commit ${environment.setupCommit}, version ${environment.version ?? "?"}).` : "#",
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
