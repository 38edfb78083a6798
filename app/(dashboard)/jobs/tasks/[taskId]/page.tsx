import Link from "next/link";
import { ValidationPanel } from "@/components/validation/validation-panel";

export const metadata = { title: "Validation · SWE Curator" };

/** A task's validation on its own page (the jobs page links here); the task page embeds the same panel. */
export default async function TaskValidationPage({ params }: { params: Promise<{ taskId: string }> }) {
  const { taskId } = await params;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Validation</h1>
        <Link className="text-sm text-blue-800 underline" href={`/tasks/${taskId}`}>
          Open the task
        </Link>
      </div>
      <ValidationPanel taskId={taskId} />
    </div>
  );
}
