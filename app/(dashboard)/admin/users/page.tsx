import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { listUsers } from "@/lib/users/manage-users";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { UserAdmin } from "@/components/admin/user-admin";

export default async function UsersPage() {
  // the route's permission: GET /api/v1/users is for users:manage, as is this page
  await pageActor("users:manage");
  // every user, as the client gathers them from GET /api/v1/users page by page
  const users = await listUsers(prisma);
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Users and roles</h1>
      <Prefetched entries={[[queryKeys.users(), users]]}>
        <UserAdmin />
      </Prefetched>
    </>
  );
}
