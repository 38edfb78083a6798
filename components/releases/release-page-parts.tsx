import { Link } from "@/components/ui/link";

/** The way back from a release page to the list of releases. */
export function ReleasesBreadcrumb() {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link href="/releases" className="text-blue-700 underline">
        Releases
      </Link>
    </nav>
  );
}

/** A release table's first cell: the task's instance id, opening the task. */
export function TaskCell({ taskId, instanceId }: { taskId: string; instanceId: string }) {
  return (
    <td className="py-1 font-mono">
      <Link href={`/tasks/${taskId}`} className="text-blue-700 underline">
        {instanceId}
      </Link>
    </td>
  );
}

/** A release table's header row, one head a label. */
export function ColumnHeads({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr className="border-b text-left text-slate-600">
        {labels.map((label) => (
          <th key={label} scope="col" className="py-1 font-medium">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
