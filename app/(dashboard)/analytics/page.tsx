import { Link } from "@/components/ui/link";

const PAGES = [
  {
    href: "/analytics/funnel",
    title: "Validation funnel",
    text: "How many tasks survive each gate — built, negative and positive control, legitimacy, a curator's approval — and the failure classes where they drop.",
  },
  {
    href: "/analytics/reviewers",
    title: "Reviewer analytics",
    text: "Reviewer agents against executed ground truth: accuracy, false approvals and rejections, cost per correct decision, reproducer use, calibration.",
  },
  {
    href: "/analytics/generated-tests",
    title: "Generated tests",
    text: "Whether generated tests fail without the fix (attack), pass with the gold fix (accuracy), and both.",
  },
  {
    href: "/analytics/verifiability",
    title: "Verifiability",
    text: "Whether each test-driven step's ground truth passes its tests, and why not: a missing dependency or a semantic mismatch.",
  },
];

export default function AnalyticsPage() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Analytics</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Every figure is computed from executed validation runs; every count opens the task list filtered to exactly the
        tasks behind it.
      </p>
      <ul className="grid gap-3 md:grid-cols-2">
        {PAGES.map((page) => (
          <li key={page.href} className="rounded border border-slate-200 bg-white p-3">
            <Link href={page.href} className="font-medium text-blue-700 underline">
              {page.title}
            </Link>
            <p className="mt-1 text-sm text-slate-600">{page.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
