import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import { blindSetOf } from "../auth/blind";
import { withResolvedSlice } from "../analytics/resolve-slice";
import type { FilterContext } from "../tasks/task-list-sql";

/**
 * What a person's task list depends on besides its filters: who asks ("assigned to me"), the
 * tasks they are blind on (left out, lib/auth/blind.ts) and the ?slice= resolved. The
 * API routes and the server-rendered /tasks page read the list through this one door.
 */
export async function taskListContext(
  db: Db,
  actor: Pick<Actor, "id" | "role">,
  filters: { slice?: string },
): Promise<FilterContext> {
  return withResolvedSlice(db, filters.slice, { actorId: actor.id, hiddenTasks: blindSetOf(db, actor).sql });
}
