// Browser-safe: the ways forward from a task that has no usable environment yet, each a section
// of the environment's page (components/environments), offered where Validate would be.
export const WAYS_FORWARD = [
  { key: "image", label: "Use the dataset's published image" },
  { key: "spec", label: "Generate the environment from the harness spec" },
  { key: "recipe", label: "Write a recipe (Dockerfile and eval script)" },
] as const;
