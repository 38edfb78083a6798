import type { PrismaClient } from "../db/client";
import { hashPassword } from "../auth/passwords";
import { createCampaign } from "./create-campaign";
import { loadCampaign } from "./access";
import { settleOutcome } from "./outcome";
import type { Answers } from "./rubric";
import { rolesWith } from "../auth/permissions";

// The demo's campaign in progress: SWE-bench Verified's rubric over four demo tasks, three
// annotators (the demo curator and two demo annotators), overlap 3. Two tasks are finished —
// one with disagreeing labels for the adjudication page — one has two labels, one none, so
// the demo curator can go on labelling. It avoids the tasks the other demo walkthroughs use.

export const DEMO_ANNOTATORS = [
  { email: "annotator-a@swe-curator.local", name: "Demo Annotator A", role: "CURATOR" as const },
  { email: "annotator-b@swe-curator.local", name: "Demo Annotator B", role: "CURATOR" as const },
];
export const DEMO_CAMPAIGN_NAME = "SWE-bench Verified-style review (demo)";
const DEMO_QUERY =
  "repository=pytest-dev/pytest&repository=scikit-learn/scikit-learn&repository=pylint-dev/astroid&repository=sqlfluff/sqlfluff";

const label = (
  underspecified: number,
  testsValid: number,
  difficulty: number,
  confidence: number,
  major?: string,
): Answers => ({
  underspecified,
  underspecified_reason: [
    "The issue states the failing call and the expected result.",
    "The expected output has to be inferred from a comment.",
    "Two reasonable readings of the issue lead to different fixes.",
  ][Math.min(underspecified, 2)],
  tests_valid: testsValid,
  tests_reason: [
    "The new test checks exactly the behaviour the issue asks for.",
    "The test also pins an error message the issue never mentions.",
  ][testsValid >= 2 ? 1 : 0],
  difficulty,
  major_issue: !!major,
  ...(major ? { major_issue_reason: major } : {}),
  confidence,
});

/** Seeds the demo campaign once; does nothing when it exists or when its tasks are missing. */
export async function seedDemoCampaign(db: PrismaClient, demoPassword: string, log: (line: string) => void = () => {}) {
  if (await db.campaign.findUnique({ where: { name: DEMO_CAMPAIGN_NAME } })) return;
  const passwordHash = await hashPassword(demoPassword);
  for (const user of DEMO_ANNOTATORS)
    await db.user.upsert({ where: { email: user.email }, create: { ...user, passwordHash }, update: {} });
  const admin = await db.user.findFirst({
    where: { role: { in: rolesWith("campaigns:manage") } },
    orderBy: { createdAt: "asc" },
  });
  const team = await db.user.findMany({
    where: { email: { in: ["curator@swe-curator.local", ...DEMO_ANNOTATORS.map((a) => a.email)] } },
    orderBy: { email: "asc" },
  });
  const candidates = await db.task.count({
    where: { environment: { repository: { name: { in: ["pytest", "scikit-learn", "astroid", "sqlfluff"] } } } },
  });
  if (!admin || team.length < 3 || candidates < 3)
    return log("[seed] demo campaign skipped: its users or tasks are missing");
  const created = await createCampaign(db, admin, {
    name: DEMO_CAMPAIGN_NAME,
    viewQuery: DEMO_QUERY,
    annotatorIds: team.map((u) => u.id),
    overlap: 3,
  });
  const campaign = await loadCampaign(db, created.id);
  const tasks = (
    await db.campaignTask.findMany({
      where: { campaignId: campaign.id },
      include: { task: { select: { instanceId: true } } },
    })
  )
    .map((ct) => ({ id: ct.taskId, instanceId: ct.task.instanceId }))
    .sort((x, y) => x.instanceId.localeCompare(y.instanceId));
  const [a, b, curator] = team; // annotator-a, annotator-b, curator (by e-mail)
  // task → the labels given so far; minutes after the start when each was opened and submitted
  const plan: [number, { who: typeof a; answers: Answers }[]][] = [
    [
      0,
      [
        { who: a, answers: label(0, 0, 1, 4) },
        { who: b, answers: label(2, 1, 1, 3) },
        { who: curator, answers: label(1, 3, 2, 2, "The test patch also changes an unrelated fixture.") },
      ],
    ],
    [
      1,
      [
        { who: a, answers: label(0, 0, 0, 5) },
        { who: b, answers: label(0, 1, 0, 4) },
        { who: curator, answers: label(0, 0, 0, 5) },
      ],
    ],
    [
      2,
      [
        { who: a, answers: label(1, 1, 1, 4) },
        { who: b, answers: label(1, 0, 2, 3) },
      ],
    ],
  ];
  const start = Date.now() - 3 * 60 * 60_000;
  let minute = 0;
  for (const [index, labels] of plan) {
    for (const { who, answers } of labels) {
      const openedAt = new Date(start + minute * 60_000);
      minute += 6 + ((minute * 7) % 11);
      await db.campaignLabel.create({
        data: {
          campaignId: campaign.id,
          taskId: tasks[index].id,
          annotatorId: who.id,
          rubricVersionId: campaign.rubricVersionId,
          answers,
          openedAt,
          submittedAt: new Date(start + minute * 60_000),
        },
      });
    }
    if (labels.length === campaign.overlap)
      await settleOutcome(db, campaign, tasks[index].id, labels[labels.length - 1].who.id);
  }
  log(`[seed] demo campaign "${DEMO_CAMPAIGN_NAME}": ${created.tasks} tasks, 3 annotators, 8 labels`);
}
