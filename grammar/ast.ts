// Typed AST for CQL (Apache Cassandra 5.0 grammar plus cqlsh shell commands).
// Every node carries its exact source range so that diagnostics, hovers and text edits can point at it.
// This file is the contract between the parser and everything that reads CQL: keep it free of
// editor or LSP imports.
//
// The node types live in two files along the tree's seam: grammar/ast-expressions.ts (ranges, names, types,
// expressions, clauses) and grammar/ast-statements.ts (statements, comments, errors, the parse result).
export * from './ast-expressions';
export * from './ast-statements';
