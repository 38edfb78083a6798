import { TaskTable } from "@/components/tasks/task-table";

export default function TasksPage() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Tasks</h1>
      <TaskTable />
    </>
  );
}
