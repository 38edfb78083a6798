"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import type { TaskListPage } from "@/lib/tasks/list-tasks";

export function TaskTable() {
  const params = useSearchParams();
  const router = useRouter();
  const page = Number(params.get("page") ?? 1);
  const { data, error, isLoading } = useQuery({
    queryKey: ["tasks", page],
    queryFn: () => apiFetch<TaskListPage>(`/api/v1/tasks?page=${page}&pageSize=50`),
  });
  if (isLoading) return <p>Loading tasks…</p>;
  if (error) return <p role="alert">Could not load tasks: {error.message}</p>;
  if (!data) return null;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const go = (p: number) => router.push(`/tasks?page=${p}`);
  return (
    <div>
      <table className="w-full border-collapse bg-white text-sm" data-testid="task-table">
        <thead>
          <tr className="border-b text-left text-slate-600">
            <th className="px-3 py-2">Instance</th>
            <th className="px-3 py-2">Repository</th>
            <th className="px-3 py-2">Source</th>
            <th className="px-3 py-2">Automated</th>
            <th className="px-3 py-2">Status</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((task) => (
            <tr key={task.id} className="border-b hover:bg-slate-50">
              <td className="px-3 py-2 font-mono">
                <Link href={`/tasks/${task.id}`} className="text-blue-700 underline">
                  {task.instanceId}
                </Link>
              </td>
              <td className="px-3 py-2">{task.repository}</td>
              <td className="px-3 py-2">{task.source}</td>
              <td className="px-3 py-2">{task.automatedVerdict}</td>
              <td className="px-3 py-2">{task.curationStatus}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-3 flex items-center gap-3 text-sm">
        <button type="button" disabled={page <= 1} onClick={() => go(page - 1)} className="rounded border px-2 py-1 disabled:opacity-40">
          Previous
        </button>
        <span>
          Page {page} of {pages} · {data.total} tasks
        </span>
        <button type="button" disabled={page >= pages} onClick={() => go(page + 1)} className="rounded border px-2 py-1 disabled:opacity-40">
          Next
        </button>
      </div>
    </div>
  );
}
