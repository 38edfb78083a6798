import type { RecordImporter } from "../../import-records";
import type { TaskRecord } from "../../records/task-record";
import { writeTaskRecords } from "../../write/write-task-records";
import { parseOpenSweRow } from "./map";

// The walk for this format's records: map (./map.ts), then write as task records.

export const openSweRowsImporter: RecordImporter<TaskRecord> = {
  format: "OPENSWE_ENVIRONMENT",
  parse: parseOpenSweRow,
  key: (r) => r.instanceId,
  write: writeTaskRecords,
};
