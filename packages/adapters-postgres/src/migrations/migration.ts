/** One schema version's change: what every migration file exports. */
export interface Migration {
  /** A few words for the log and schema_migrations. */
  readonly name: string;
  /** Run inside the migrating transaction; may hold several statements. */
  readonly sql: string;
}
