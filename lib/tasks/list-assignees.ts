import type { Db } from "../db/client";

/** People a task can be assigned to: active curators and admins, by name. */
export async function listAssignees(db: Db) {
  const users = await db.user.findMany({
    where: { disabled: false, role: { in: ["CURATOR", "ADMIN"] } },
    orderBy: [{ name: "asc" }, { email: "asc" }],
    select: { id: true, name: true, email: true },
  });
  return users.map((u) => ({ id: u.id, name: u.name ?? u.email }));
}
