import type { TaskSource } from "../db/client";

// The published image a dataset row runs in, by each dataset's own convention, read from its
// rows and harness source rather than guessed:
// - SWE-bench: one image per instance, `swebench/sweb.eval.x86_64.<instance_id lowercased>:latest`
//   with every "__" rewritten to "_1776_" (Docker Hub refuses "__"): TestSpec.instance_image_key in
//   SWE-bench/SWE-bench@7db9cf087d29e51d887ccc6950b516fd83862486 swebench/harness/test_spec/test_spec.py.
// - SWE-Gym: OpenHands' images `xingyaoww/sweb.eval.x86_64.<instance_id with "__" → "_s_">`, lowercased
//   (get_instance_docker_image in OpenHands' evaluation/benchmarks/swe_bench/run_infer.py).
// - SWE-smith rows name theirs in `image_name` (swebench/swesmith.x86_64.<owner>_1776_<repo>.<commit>),
//   SWE-rebench and R2E-Gym rows in `docker_image`.

/** SWE-bench's per-instance image on Docker Hub. */
export const sweBenchImageName = (instanceId: string) =>
  `swebench/sweb.eval.x86_64.${instanceId.toLowerCase()}:latest`.replace(/__/g, "_1776_");

/** SWE-Gym's per-instance image (OpenHands' naming). */
export const sweGymImageName = (instanceId: string) =>
  `xingyaoww/sweb.eval.x86_64.${instanceId.replace(/__/g, "_s_")}:latest`.toLowerCase();

const ROW_IMAGE_FIELDS = ["image_name", "docker_image", "image"] as const;

/** The image a row names itself (SWE-smith's image_name, SWE-rebench's and R2E-Gym's docker_image). */
export function rowImageName(...metadata: (Record<string, unknown> | null | undefined)[]): string | null {
  for (const fields of metadata) {
    for (const field of ROW_IMAGE_FIELDS) {
      const value = fields?.[field];
      if (typeof value === "string" && value.trim()) return value.trim();
    }
  }
  return null;
}

/** The image a row runs in: the one it names, else its dataset's per-instance convention, else none. */
export function datasetImageName(row: {
  source: TaskSource;
  instanceId: string;
  metadata: (Record<string, unknown> | null | undefined)[];
}): string | null {
  const named = rowImageName(...row.metadata);
  if (named) return named;
  if (row.source === "SWE_BENCH") return sweBenchImageName(row.instanceId);
  if (row.source === "SWE_GYM") return sweGymImageName(row.instanceId);
  return null;
}
