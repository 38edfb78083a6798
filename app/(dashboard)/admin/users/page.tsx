import { pageContext } from "@/lib/http/page-context";
import { listUsers } from "@/lib/users/manage-users";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { UserAdmin } from "@/components/admin/user-admin";

export default async function UsersPage() {
  // the route's permission: GET /api/v1/users is for users:manage, as is this page
  const { db } = await pageContext("users:manage");
  // every user, as the client gathers them from GET /api/v1/users page by page
  const users = await listUsers(db);
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Users and roles</h1>
      <Prefetched entries={[[queryKeys.users(), users]]}>
        <UserAdmin />
      </Prefetched>
    </>
  );
}
