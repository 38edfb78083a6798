// A tiny composable parameterised-SQL builder. The task list is written in SQL (keyset
// cursors on row values, trigram ILIKE, array overlaps, GROUPING SETS for facets) and
// the benchmark times the very same statement through pg directly, so both need the text.
// Values are always bound parameters; only SqlFragment text is ever concatenated.

import type { Db } from "./client";

export class SqlFragment {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** Postgres text with $1…$n placeholders, and the values in order. */
  toQuery(): { text: string; values: unknown[] } {
    let text = this.strings[0];
    for (let i = 0; i < this.values.length; i++) text += `$${i + 1}${this.strings[i + 1]}`;
    return { text, values: [...this.values] };
  }
}

export function sql(strings: TemplateStringsArray, ...params: unknown[]): SqlFragment {
  const outStrings: string[] = [strings[0]];
  const outValues: unknown[] = [];
  params.forEach((param, i) => {
    if (param instanceof SqlFragment) {
      outStrings[outStrings.length - 1] += param.strings[0];
      for (let j = 0; j < param.values.length; j++) {
        outValues.push(param.values[j]);
        outStrings.push(param.strings[j + 1]);
      }
      outStrings[outStrings.length - 1] += strings[i + 1];
    } else {
      outValues.push(param);
      outStrings.push(strings[i + 1]);
    }
  });
  return new SqlFragment(outStrings, outValues);
}

/** Trusted SQL text (identifiers and keywords chosen by our code, never user input). */
export function raw(text: string): SqlFragment {
  return new SqlFragment([text], []);
}

export function joinSql(fragments: readonly SqlFragment[], separator: string): SqlFragment {
  if (fragments.length === 0) return raw("");
  return fragments.slice(1).reduce((acc, f) => sql`${acc}${raw(separator)}${f}`, fragments[0]);
}

export const EMPTY = raw("");

/** The conditions joined with AND; TRUE when there are none. */
export const allOf = (conditions: readonly SqlFragment[]): SqlFragment =>
  conditions.length ? joinSql(conditions, " AND ") : raw("TRUE");

/** Sends a statement through a Prisma client (or transaction) and resolves its rows. */
export function queryRows<T>(db: Db, statement: SqlFragment): Promise<T[]> {
  const { text, values } = statement.toQuery();
  return db.$queryRawUnsafe<T[]>(text, ...values);
}
