"use client";
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

/** The 404's body: what happened, a search of the tasks, and the ways back. */
export function NotFoundContent({ signedIn }: { signedIn: boolean }) {
  const router = useRouter();
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-4 py-12" data-testid="not-found">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-slate-700">
        Nothing lives at this address: the link may be old, or the task or page was removed or renamed.
      </p>
      {signedIn && (
        <form role="search" action="/tasks" method="get" className="flex items-end gap-2">
          <label className="flex flex-1 flex-col text-sm font-medium text-slate-700">
            Search tasks by instance id or problem statement
            <input name="q" type="search" className={inputClass} />
          </label>
          <Button type="submit">Search</Button>
        </form>
      )}
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <Button onClick={() => (window.history.length > 1 ? router.back() : router.push("/tasks"))}>Go back</Button>
        {signedIn ? (
          <Link href="/tasks" className="text-blue-700 underline">
            Task list
          </Link>
        ) : (
          <Link href="/signin" className="text-blue-700 underline">
            Sign in
          </Link>
        )}
      </div>
    </div>
  );
}
