import { Suspense } from "react";
import { TaskListPage } from "@/components/tasks/task-list-page";

export default function TasksPage() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Tasks</h1>
      <Suspense fallback={<p>Loading tasks…</p>}>
        <TaskListPage />
      </Suspense>
    </>
  );
}
