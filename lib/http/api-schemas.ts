import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "../auth/permissions";
import { AutomatedVerdict, CurationStatus, TaskKind, TaskSource } from "../db/enums";
import { pageSchema } from "./pagination";

// The JSON the /api/v1 routes answer, as the wire carries it (dates as ISO strings). The
// routes name these in their spec; the OpenAPI document and tests/integration/api-contract
// check real answers against them. Objects are open (looseObject): a new field is not a break.

export const IsoDate = z.iso.datetime({ offset: true });
const id = z.string().min(1);

export const IdParams = z.object({ id: z.string().min(1).max(200) });

export const ActorSchema = z
  .object({ id, email: z.string(), name: z.string().nullable(), role: z.enum(ROLES) })
  .meta({ id: "Actor" });

export const TaskListItemSchema = z
  .looseObject({
    id,
    instanceId: z.string(),
    excerpt: z.string(),
    source: z.enum(TaskSource),
    kind: z.enum(TaskKind),
    curationStatus: z.enum(CurationStatus),
    automatedVerdict: z.enum(AutomatedVerdict),
    labels: z.array(z.string()),
    version: z.number().int(),
    repository: z.string(),
    decisionCount: z.number().int(),
    createdAt: IsoDate,
  })
  .meta({ id: "TaskListItem" });
export const TaskPageSchema = pageSchema(TaskListItemSchema)
  .extend({
    limit: z.number().int(),
    ranked: z
      .boolean()
      .describe(
        "ordered by full-text rank: a best-match search with at most 500 matches (not counted when the planner estimates far more from its statistics); otherwise by the sort",
      ),
  })
  .meta({ id: "TaskPage" });

export const TaskSchema = z
  .looseObject({ id, instanceId: z.string(), curationStatus: z.enum(CurationStatus), version: z.number().int() })
  .meta({ id: "Task" });

export const FacetsSchema = z.looseObject({ total: z.number().int().optional() }).meta({ id: "TaskFacets" });

export const DecisionResultSchema = z
  .looseObject({
    decision: z.looseObject({ id, taskId: z.string(), verdict: z.string(), createdAt: IsoDate }),
    curationStatus: z.enum(CurationStatus),
    version: z.number().int(),
  })
  .meta({ id: "DecisionResult" });

export const HistoryEventSchema = z
  .looseObject({ id, entityType: z.string(), action: z.string(), at: IsoDate })
  .meta({ id: "HistoryEvent" });

export const EnvironmentSchema = z.looseObject({ id, key: z.string() }).meta({ id: "Environment" });
export const EnvironmentPageSchema = pageSchema(EnvironmentSchema);
export const RevisionSchema = z.looseObject({ id: z.string().optional() }).meta({ id: "EnvironmentRevisionResult" });

export const BuildSchema = z.looseObject({ id, status: z.string(), createdAt: IsoDate }).meta({ id: "Build" });
export const EnvironmentBuildsSchema = pageSchema(BuildSchema)
  .extend({ environment: z.looseObject({ id, key: z.string() }), active: z.boolean() })
  .meta({ id: "EnvironmentBuilds" });

export const RunSchema = z.looseObject({ id, status: z.string(), kind: z.string() }).meta({ id: "ValidationRun" });
export const RunGroupSchema = z.looseObject({ groupId: z.string(), runs: z.array(RunSchema) });
export const TaskValidationsSchema = pageSchema(
  z.looseObject({ groupId: z.string(), active: z.boolean(), runs: z.array(RunSchema) }),
)
  .extend({ task: z.looseObject({ id }) })
  .meta({ id: "TaskValidations" });
const LogLine = z.number().int().nullable().describe("1-based line of the run's log that decided the status");
const FlipSideSchema = z.object({ runId: id, actual: z.string(), logLine: LogLine });
const notRecorded = (what: string) => z.string().nullable().describe(`${what}; null: not recorded (older run)`);
export const EvidenceMatrixSchema = z
  .looseObject({
    task: z.looseObject({ id, instanceId: z.string() }),
    runs: z.array(
      z.looseObject({
        id,
        kind: z.string(),
        attempt: z.number().int(),
        rerun: z.boolean(),
        revision: z.looseObject({ id, number: z.number().int() }),
        engine: notRecorded("the Docker engine that ran it"),
        imageId: notRecorded("the image's id (sha256:…)"),
        parserVersion: notRecorded("log parser and version, e.g. pytest@1"),
      }),
    ),
    tests: z.array(
      z.looseObject({
        testId: z.string(),
        group: z.string(),
        cells: z.array(z.looseObject({ runId: id, actual: z.string(), logLine: LogLine })),
      }),
    ),
    flips: z.array(
      z.looseObject({
        testId: z.string(),
        kind: z.string(),
        before: FlipSideSchema,
        after: FlipSideSchema,
        explanation: z.looseObject({
          cause: z.enum(["changed", "flaky", "unknown"]),
          changed: z.array(z.string()),
          notRecorded: z.array(z.string()),
          sentence: z.string(),
        }),
      }),
    ),
  })
  .meta({ id: "EvidenceMatrix" });
export const QueuedGroupSchema = z
  .looseObject({ groupId: z.string(), runs: z.array(z.looseObject({ id })) })
  .meta({ id: "QueuedValidation" });

export const ImportBatchSchema = z
  .looseObject({ id, status: z.string(), fileName: z.string().nullable().optional() })
  .meta({ id: "ImportBatch" });
export const ImportPageSchema = pageSchema(ImportBatchSchema);

export const SavedViewSchema = z
  .looseObject({ id, name: z.string(), scope: z.string(), query: z.string() })
  .meta({ id: "SavedView" });
export const SavedViewPageSchema = pageSchema(SavedViewSchema);

export const UserSchema = z
  .looseObject({ id, email: z.string(), name: z.string().nullable(), role: z.enum(ROLES), disabled: z.boolean() })
  .meta({ id: "User" });
export const UserPageSchema = pageSchema(UserSchema);
export const AssigneeSchema = z.object({ id, name: z.string() }).meta({ id: "Assignee" });
export const AssigneePageSchema = pageSchema(AssigneeSchema);

export const ApiTokenSchema = z
  .object({
    id,
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(TOKEN_SCOPES)),
    expiresAt: IsoDate.nullable(),
    lastUsedAt: IsoDate.nullable(),
    revokedAt: IsoDate.nullable(),
    createdAt: IsoDate,
  })
  .meta({ id: "ApiToken" });
export const ApiTokenPageSchema = pageSchema(ApiTokenSchema);
export const CreatedApiTokenSchema = ApiTokenSchema.extend({
  token: z.string().startsWith("swc_").describe("shown once; only its SHA-256 is stored"),
}).meta({ id: "CreatedApiToken" });
export const RevokedTokenSchema = z.object({ id, revokedAt: IsoDate.nullable() });

export const WorkerSchema = z
  .looseObject({ id: z.string(), alive: z.boolean(), lastSeenAt: IsoDate })
  .meta({ id: "Worker" });
export const WorkerPageSchema = pageSchema(WorkerSchema);

export const TrajectorySchema = z
  .looseObject({ id, taskId: z.string().nullable().optional() })
  .meta({ id: "Trajectory" });
export const TrajectoryStepSchema = z.looseObject({ id, index: z.number().int() }).meta({ id: "TrajectoryStep" });
export const TrajectoryStepPageSchema = pageSchema(TrajectoryStepSchema);

export const StepReplaySchema = z
  .looseObject({
    id,
    trajectoryId: z.string(),
    stepIndex: z.number().int(),
    status: z.string(),
    actionsTotal: z.number().int(),
    actionsDone: z.number().int(),
  })
  .meta({ id: "StepReplay" });
export const QueuedReplaySchema = z.object({ id, queued: z.boolean() }).meta({ id: "QueuedReplay" });
export const StepReplayListSchema = z.object({ items: z.array(StepReplaySchema) });

export const AnyObject = z.looseObject({});
export const SettingsSchema = z.looseObject({}).meta({ id: "CurationSettings" });

const ReleaseSummaryShape = {
  id,
  name: z.string(),
  description: z.string().nullable(),
  taskCount: z.number().int(),
  createdByEmail: z.string().nullable(),
  createdAt: IsoDate,
};
export const ReleaseSummarySchema = z.looseObject(ReleaseSummaryShape).meta({ id: "ReleaseSummary" });
export const ReleasePageSchema = pageSchema(ReleaseSummarySchema);
export const ReleaseSchema = z
  .looseObject({
    ...ReleaseSummaryShape,
    tasks: z.array(
      z.looseObject({
        taskId: id,
        instanceId: z.string(),
        evidenceFingerprint: z.string(),
        evidence: z.looseObject({}),
        verdicts: z.record(z.string(), z.string().nullable()),
        decisions: z.array(z.looseObject({ verdict: z.string() })),
      }),
    ),
  })
  .meta({ id: "Release" });
const DiffEntry = z.looseObject({ taskId: id, instanceId: z.string(), why: z.array(z.string()) });
export const ReleaseDiffSchema = z
  .looseObject({
    from: ReleaseSummarySchema,
    to: ReleaseSummarySchema,
    added: z.array(DiffEntry),
    removed: z.array(DiffEntry),
    changed: z.array(DiffEntry.extend({ evidenceParts: z.array(z.string()), decisionChanged: z.boolean() })),
    unchanged: z.number().int(),
  })
  .meta({ id: "ReleaseDiff" });
