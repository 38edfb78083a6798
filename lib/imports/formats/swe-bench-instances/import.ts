import type { TaskSource } from "../../../db/enums";
import type { RecordImporter } from "../../import-records";
import type { TaskRecord } from "../../records/task-record";
import { writeTaskRecords } from "../../write/write-task-records";
import { parseSweBenchInstance } from "./map";

// The walk for this format's records: map (./map.ts), then write as task records.

export function sweBenchInstancesImporter(fileName: string, source?: TaskSource): RecordImporter<TaskRecord> {
  return {
    format: "SWE_BENCH_INSTANCES",
    parse: (value) => parseSweBenchInstance(value, fileName, source),
    key: (record) => record.instanceId,
    write: writeTaskRecords,
  };
}
