import type { ImportFormat } from "../../db/enums";
import type { FormatDetector } from "./format-detector";
import { sweAgentDetector } from "./swe-agent-trajectory/detect";
import { inspectLogDetector } from "./inspect-log/detect";
import { reviewerVerdictsDetector } from "./reviewer-verdicts/detect";
import { sweBenchReportDetector } from "./swe-bench-report/detect";
import { sweBenchPredictionsDetector } from "./swe-bench-predictions/detect";
import { openHandsDetector } from "./openhands-trajectory/detect";
import { r2eGymDetector } from "./r2e-gym-trajectory/detect";
import { sweFlowStepsDetector } from "./swe-flow-steps/detect";
import { openSweEnvironmentDetector } from "./openswe-environment/detect";
import { sweBenchInstancesDetector } from "./swe-bench-instances/detect";

/**
 * Every format a record or a JSON document can be, in the order they are tried: the first
 * that recognises it wins, so a format whose keys are a narrower case of another's comes first
 * (verdicts and reports name an instance id, as instances do; predictions carry a model_patch
 * beside it). A new format is a folder with its detect.ts and one line here.
 */
export const FORMAT_DETECTORS: readonly FormatDetector[] = [
  sweAgentDetector,
  inspectLogDetector,
  reviewerVerdictsDetector,
  sweBenchReportDetector,
  sweBenchPredictionsDetector,
  openHandsDetector,
  r2eGymDetector,
  sweFlowStepsDetector,
  openSweEnvironmentDetector,
  sweBenchInstancesDetector,
];

/** What one record is, from its keys. Null when nothing we import looks like it. */
export const classifyRecordKeys = (keys: Set<string>): ImportFormat | null =>
  FORMAT_DETECTORS.find((d) => d.record?.(keys))?.format ?? null;

/** What a whole JSON object is, from its shape. Null when no document format recognises it. */
export const classifyDocument = (shape: Parameters<NonNullable<FormatDetector["document"]>>[0]): ImportFormat | null =>
  FORMAT_DETECTORS.find((d) => d.document?.(shape))?.format ?? null;
