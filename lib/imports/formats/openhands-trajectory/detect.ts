import { hasAny, type FormatDetector } from "../format-detector";

export const openHandsDetector: FormatDetector = {
  format: "OPENHANDS_TRAJECTORY",
  record: (keys) =>
    keys.has("instance_id") &&
    ((keys.has("history") && hasAny(keys, "instruction", "metrics", "test_result")) ||
      // SWE-Gym's sampled OpenHands trajectories: one run per row as chat messages
      (keys.has("messages") && hasAny(keys, "run_id", "resolved", "test_result"))),
};

/** An OpenHands SDK event (events.jsonl, one per line, or an array of them): a `kind`, its source, a string id and a time. */
export const isOpenHandsSdkEvent = (keys: Set<string>) =>
  ["kind", "source", "id", "timestamp"].every((key) => keys.has(key));

/** The elements of a JSON array that is one OpenHands run: its events, older (action/observation) or the SDK's. */
export const isOpenHandsEventList = (elementKeys: Set<string>) =>
  (hasAny(elementKeys, "action", "observation") && elementKeys.has("source")) || isOpenHandsSdkEvent(elementKeys);
