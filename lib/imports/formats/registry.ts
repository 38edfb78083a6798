import type { ImportFormat } from "../../db/client";
import type { FormatDeclaration } from "./format";
import { sweAgentTrajectory } from "./swe-agent-trajectory";
import { inspectLog } from "./inspect-log";
import { reviewerVerdicts } from "./reviewer-verdicts";
import { sweBenchReport } from "./swe-bench-report";
import { sweBenchPredictions } from "./swe-bench-predictions";
import { openHandsTrajectory } from "./openhands-trajectory";
import { r2eGymTrajectory } from "./r2e-gym-trajectory";
import { sweFlowSteps } from "./swe-flow-steps";
import { openSweEnvironment } from "./openswe-environment";
import { sweBenchInstances } from "./swe-bench-instances";

/**
 * Every format a file can be, in the order detection tries them (detect-format.ts): the first
 * whose detector says yes wins, so a format whose keys are a narrower case of another's comes
 * first — a reviewer verdict (which may name its candidate as a prediction does) before
 * predictions, OpenSWE rows and SWE-Flow steps (which name an instance id and a patch or
 * problem statement) before SWE-bench instances. A new format is a folder with its index.ts
 * and one line here (test/unit/imports/format-registry.test.ts holds both).
 */
export const FORMATS: readonly FormatDeclaration[] = [
  sweAgentTrajectory,
  inspectLog,
  reviewerVerdicts,
  sweBenchReport,
  sweBenchPredictions,
  openHandsTrajectory,
  r2eGymTrajectory,
  sweFlowSteps,
  openSweEnvironment,
  sweBenchInstances,
];

export const formatDeclaration = (format: ImportFormat): FormatDeclaration | undefined =>
  FORMATS.find((declaration) => declaration.format === format);
