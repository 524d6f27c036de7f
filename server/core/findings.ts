// What an analysis reports, independent of how it is shown (LSP diagnostic, CLI line, SARIF result).
import type { SourceRange } from '../../grammar/ast';

export type Severity = 'error' | 'warning' | 'info';

/** Another place that explains a finding, e.g. where the table a query uses is defined. */
interface RelatedLocation {
  /** Absolute file path. */
  filePath: string;
  range: SourceRange;
  message: string;
}

export interface Finding {
  /** Stable rule id (`syntax-error`, `hot-partition`, ...): the diagnostic code, CLI ruleId and suppression name. */
  ruleId: string;
  severity: Severity;
  message: string;
  range: SourceRange;
  related?: RelatedLocation[];
  /** Rule-specific facts a quick fix needs (e.g. the table name, the suggested column); JSON-serialisable. */
  data?: Record<string, unknown>;
}

/** Where a rule's docs page lives; the file is docs/rules/<id>.md in the repository. */
const DOCS_BASE_URL = 'https://github.com/cqlint/cqlint/blob/main/docs/rules/';

export function docsUrl(ruleId: string): string {
  return `${DOCS_BASE_URL}${ruleId}.md`;
}
