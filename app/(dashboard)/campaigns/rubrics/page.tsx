import { pageActor } from "@/lib/auth/session";
import { RubricEditor } from "@/components/campaigns/rubric-editor";

export default async function RubricsPage() {
  await pageActor("campaigns:manage");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Rubrics</h1>
      <RubricEditor />
    </div>
  );
}
