import { headers } from "next/headers";
import { resolveActor } from "@/lib/auth/actor";
import { DashboardFrame } from "@/components/nav/dashboard-frame";
import { NotFoundContent } from "@/components/nav/not-found-content";

/** Any address that matches no page: inside the dashboard's frame for a signed-in reader, plain otherwise. */
export default async function NotFound() {
  const actor = await resolveActor(await headers());
  if (!actor) {
    return (
      <main className="px-4">
        <NotFoundContent signedIn={false} />
      </main>
    );
  }
  return (
    <DashboardFrame actor={actor}>
      <NotFoundContent signedIn />
    </DashboardFrame>
  );
}
