import { prisma } from "@/lib/db/client";
import { getTask } from "@/lib/tasks/get-task";

export default async function TaskPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const task = await getTask(prisma, id);
  return (
    <article>
      <h1 className="font-mono text-xl font-semibold">{task.instanceId}</h1>
      <p className="mt-1 text-sm text-slate-600">
        {task.environment.repository.owner}/{task.environment.repository.name} · {task.source} · {task.curationStatus}
      </p>
      <h2 className="mt-6 font-semibold">Problem statement</h2>
      <div className="mt-2 whitespace-pre-wrap rounded border bg-white p-4 text-sm" data-testid="problem-statement">
        {task.problemStatement}
      </div>
      <h2 className="mt-6 font-semibold">Fix patch</h2>
      <pre className="mt-2 overflow-x-auto rounded border bg-white p-4 text-xs" data-testid="fix-patch">
        {task.fixPatch}
      </pre>
    </article>
  );
}
