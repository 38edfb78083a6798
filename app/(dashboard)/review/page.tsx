import { ReviewQueue } from "@/components/tasks/review-queue";
import { pageActor } from "@/lib/auth/session";

export default async function ReviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await pageActor("tasks:decide");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const v of Array.isArray(value) ? value : value ? [value] : []) params.append(key, v);
  }
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Review queue</h1>
      <ReviewQueue initialView={params.toString()} />
    </>
  );
}
