import { pageActor } from "@/lib/auth/session";
import { UserAdmin } from "@/components/admin/user-admin";

export default async function UsersPage() {
  await pageActor("users:manage");
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Users and roles</h1>
      <UserAdmin />
    </>
  );
}
