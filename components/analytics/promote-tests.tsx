"use client";
import { Link } from "@/components/ui/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Promotable } from "@/lib/analytics/generated-tests";
import { useCan } from "@/components/auth/actor-context";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";

/** Valid generated tests, each with a button that adds it to its task's FAIL_TO_PASS (curators). */
export function PromoteTests({ tests }: { tests: Promotable[] }) {
  const mayEdit = useCan("tasks:edit");
  const queryClient = useQueryClient();
  const promote = useMutation({
    mutationFn: (test: Promotable) =>
      apiFetch<{ version: number }>(`/api/v1/analytics/generated-tests/${test.taskId}/promote`, {
        method: "POST",
        json: { version: test.original.version },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.analytics() }),
  });
  if (tests.length === 0) return null;
  return (
    <section className="flex flex-col gap-2" data-testid="promotable-tests">
      <h2 className="text-sm font-medium">Valid tests that can join their task&apos;s FAIL_TO_PASS</h2>
      <ul className="flex flex-col gap-1 text-sm">
        {tests.map((test) => (
          <li key={test.taskId} className="flex flex-wrap items-center gap-2">
            <Link href={`/tasks/${test.taskId}`} className="font-mono text-blue-700 underline">
              {test.test}
            </Link>
            <span className="text-slate-600">for</span>
            <Link href={`/tasks/${test.original.id}`} className="font-mono text-blue-700 underline">
              {test.generatedFor}
            </Link>
            {mayEdit && (
              <Button size="sm" onClick={() => promote.mutate(test)} disabled={promote.isPending}>
                Promote into {test.generatedFor}
              </Button>
            )}
            {promote.isSuccess && promote.variables?.taskId === test.taskId && (
              <span className="text-green-700">added (task version {promote.data.version})</span>
            )}
          </li>
        ))}
      </ul>
      {promote.error && <ErrorText error={promote.error} prefix="Could not promote the test" />}
    </section>
  );
}
