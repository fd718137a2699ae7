/**
 * Statements that run on every placement are named: each pooled connection parses and plans them
 * once, and PostgreSQL then reuses a generic plan, where an unnamed statement is planned again on
 * every execution (for the placement's statement, planning cost more than running it;
 * docs/performance.md, "Placement planned once"). A generic plan is made without the parameters'
 * values and kept for the connection's life, however much its tables grow meanwhile: so only a
 * statement whose plan cannot depend on the tables' sizes is named (inserts, no scans).
 * test/plans-by-index.spec.ts asks PostgreSQL for the generic plan of every statement listed here,
 * on small analyzed tables and on large ones, analyzed or not, and fails on a sequential scan.
 *
 * Behind PgBouncer in transaction mode, named statements need its `max_prepared_statements`
 * (PgBouncer 1.21 and later; docs/decisions.md, "PostgreSQL statements a placement runs").
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

const statements: NamedStatement[] = [];

/** Every named statement, for the generic-plan test. */
export const NAMED_STATEMENTS: readonly NamedStatement[] = statements;

/** A statement prepared once per connection under `storefront_<name>`. */
export function namedStatement(name: string, text: string): NamedStatement {
  const statement = { name: `storefront_${name}`, text };
  if (statements.some((known) => known.name === statement.name)) throw new Error(`statement name ${statement.name} is taken`);
  statements.push(statement);
  return statement;
}

/** The statement with its parameters, as `pool.query` takes it (written out: no spread, see withFields). */
export function queryOf(statement: NamedStatement, values: unknown[]): { name: string; text: string; values: unknown[] } {
  return { name: statement.name, text: statement.text, values };
}
