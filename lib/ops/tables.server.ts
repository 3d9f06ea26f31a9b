/**
 * Every table of the app's schema, copied row by row through SQL that both PGlite and Postgres
 * run: the tables are read from the catalog (so a table added by a later migration is copied
 * without a change here), each row travels as the text of `to_jsonb(row)` (no value is parsed in
 * JavaScript: a bigint, a timestamp or bytea comes back exactly) and is written back with
 * `jsonb_populate_recordset`. Parents are written before the tables that reference them.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type Queryable } from '@/lib/db/rows.server';

const ident = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/** The app's tables (schema public), parents before the tables whose foreign keys name them. */
export async function tablesInOrder(db: Queryable): Promise<string[]> {
  const tables = (
    await rowsOf<{ name: string }>(db, sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`)
  ).map((row) => row.name);
  const edges = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select ch.relname as child, pa.relname as parent from pg_constraint k
        join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
        join pg_namespace n on n.oid = ch.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return; // a cycle is left to the constraint's own check
    path.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent, path);
    path.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** How many rows each cursor fetch and each insert carries. */
const BATCH_ROWS = 500;

/**
 * The rows of `table` as JSON texts, in batches, through a cursor. Run it inside a transaction
 * (a cursor lives in one); a repeatable-read one gives every table the same snapshot.
 */
export async function* readTable(tx: Queryable, table: string): AsyncGenerator<string[]> {
  const cursor = ident(`runpad_copy_${table}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for select to_jsonb(t)::text as row from ${ident(table)} t`);
  try {
    for (;;) {
      const rows = await rowsOf<{ row: string }>(tx, sql`fetch ${sql.raw(String(BATCH_ROWS))} from ${cursor}`);
      if (rows.length === 0) return;
      yield rows.map((row) => row.row);
    }
  } finally {
    await tx.execute(sql`close ${cursor}`);
  }
}

/** At most this many characters of rows go in one insert (rows of long conversations are large). */
const BATCH_CHARS = 8_000_000;

/** Writes rows (JSON texts of `to_jsonb(row)`) into `table`; returns how many. */
export async function writeRows(db: Queryable, table: string, rows: readonly string[]): Promise<number> {
  let start = 0;
  while (start < rows.length) {
    let end = start;
    let chars = 0;
    while (end < rows.length && end - start < BATCH_ROWS && (end === start || chars + rows[end].length <= BATCH_CHARS)) chars += rows[end++].length;
    const batch = `[${rows.slice(start, end).join(',')}]`;
    await db.execute(sql`insert into ${ident(table)} select * from jsonb_populate_recordset(null::${ident(table)}, ${batch}::jsonb)`);
    start = end;
  }
  return rows.length;
}

/** After rows were written with their own ids: every sequence owned by a column continues past them. */
export async function resetSequences(db: Queryable): Promise<void> {
  const owned = await rowsOf<{ table: string; column: string; sequence: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", s.relname as "sequence" from pg_depend d
        join pg_class s on s.oid = d.objid and s.relkind = 'S'
        join pg_class c on c.oid = d.refobjid join pg_attribute a on a.attrelid = c.oid and a.attnum = d.refobjsubid
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'`,
  );
  for (const { table, column, sequence } of owned) {
    await db.execute(sql`select setval(${`"${sequence.replaceAll('"', '""')}"`}::regclass, coalesce((select max(${ident(column)}) from ${ident(table)}), 0) + 1, false)`);
  }
}

/** Rows per table of the app's schema that hold any (an empty database answers []). */
export async function nonEmptyTables(db: Queryable): Promise<{ table: string; rows: number }[]> {
  const found: { table: string; rows: number }[] = [];
  for (const table of await tablesInOrder(db)) {
    const [{ count }] = await rowsOf<{ count: string | number }>(db, sql`select count(*) as count from ${ident(table)}`);
    if (Number(count) > 0) found.push({ table, rows: Number(count) });
  }
  return found;
}
