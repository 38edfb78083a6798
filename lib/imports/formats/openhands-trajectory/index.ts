import { hasAny, type FormatDeclaration } from "../format";
import { importOpenHandsEvents, openHandsOutputImporter } from "./import";

/** An OpenHands SDK event (events.jsonl, one per line, or an array of them): a `kind`, its source, a string id and a time. */
const isSdkEvent = (keys: Set<string>) => ["kind", "source", "id", "timestamp"].every((key) => keys.has(key));

/** OpenHands: a run per file (an event array, the SDK's events.jsonl) or a run per record (output.jsonl, SWE-Gym rows). */
export const openHandsTrajectory: FormatDeclaration = {
  format: "OPENHANDS_TRAJECTORY",
  detect: {
    document: ({ container, top, inner }) =>
      (container === "array" &&
        ((hasAny(inner, "action", "observation") && inner.has("source")) || isSdkEvent(inner))) ||
      // the SDK's events.jsonl: one run, an event a line
      (container === "lines" && isSdkEvent(top)),
    record: (keys) =>
      (keys.has("instance_id") && keys.has("history") && hasAny(keys, "instruction", "metrics", "test_result")) ||
      // SWE-Gym's sampled OpenHands trajectories: one run per row as chat messages
      (keys.has("instance_id") && keys.has("messages") && hasAny(keys, "run_id", "resolved", "test_result")),
  },
  records: (_ctx, chooseGenerator) => openHandsOutputImporter(chooseGenerator),
  document: importOpenHandsEvents,
};
