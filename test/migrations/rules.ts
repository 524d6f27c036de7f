// The migration-safety rules (docs/migrations.md), for the tests of their pages and fixtures.
export const MIGRATION_RULES = [
  'primary-key-change',
  'column-type-change',
  'readd-dropped-column',
  'destructive-migration',
  'compaction-change-on-large-table',
  'index-on-large-table',
  'view-on-existing-table',
];
