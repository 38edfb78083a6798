import type { Db } from "../../db/client";

/**
 * The task a file belongs to when the file does not say: the longest imported instance id
 * that appears in its name or path (e.g. report__swesmith_<instance_id>.json,
 * run_evaluation/<instance_id>/test_output.txt).
 */
export async function instanceFromFileName(db: Db, fileName: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ instance_id: string }[]>`
    select instance_id from tasks where strpos(${fileName}, instance_id) > 0 order by length(instance_id) desc limit 1`;
  return rows[0]?.instance_id ?? null;
}
