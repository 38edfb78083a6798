import type { RecordImporter } from "../../import-records";
import type { TaskRecord } from "../../records/task-record";
import { writeTaskRecords } from "../../write/write-task-records";
import { parseSweFlowStep } from "./map";

// The walk for this format's records: map (./map.ts), then write as task records.

export const sweFlowStepsImporter: RecordImporter<TaskRecord> = {
  format: "SWE_FLOW_STEPS",
  parse: parseSweFlowStep,
  key: (r) => r.instanceId,
  write: writeTaskRecords,
};
