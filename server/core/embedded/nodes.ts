// Small helpers over tree-sitter nodes shared by the language modules.
import type { Expr, FileFacts, Node } from './syntax';

/** The named children of a node, comments left out. */
export function namedChildren(node: Node): Node[] {
  const out: Node[] = [];
  const count = node.namedChildCount;
  for (let i = 0; i < count; i++) {
    const child = node.namedChild(i);
    if (child && !child.type.includes('comment')) out.push(child);
  }
  return out;
}

/** Climbs from `node` (at most `steps` parents) to the first node whose type is in `types`. */
export function climbTo(node: Node, types: ReadonlySet<string>, steps = 3): Node | undefined {
  let current: Node | null = node;
  for (let i = 0; current && i <= steps; i++, current = current.parent) {
    if (types.has(current.type)) return current;
  }
  return undefined;
}

/** The text of a node with white space removed (a receiver: `self.session`). */
export function compactText(node: Node | null | undefined): string | undefined {
  return node ? node.text.replace(/\s+/g, '') : undefined;
}

export const sameNode = (a: Node | null | undefined, b: Node | null | undefined): boolean =>
  !!a && !!b && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.typeId === b.typeId;

/** The nearest ancestor of one of `types`, or undefined. */
export function ancestor(node: Node, types: ReadonlySet<string>): Node | undefined {
  for (let p = node.parent; p; p = p.parent) if (types.has(p.type)) return p;
  return undefined;
}

/** The index of `child` among the argument nodes, or -1. */
export function indexIn(children: readonly Node[], child: Node): number {
  return children.findIndex((c) => sameNode(c, child));
}

/**
 * The expressions most grammars spell alike: `a + b` (binary_expression), `(a)` (parenthesized_expression) and a
 * name (identifier); undefined for anything else.
 */
export function commonExpression(node: Node): Expr | undefined {
  switch (node.type) {
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      return left && right && node.childForFieldName('operator')?.type === '+' ? { kind: 'concat', operands: [left, right] } : { kind: 'other' };
    }
    case 'parenthesized_expression': {
      const inner = namedChildren(node)[0];
      return inner ? { kind: 'paren', inner } : { kind: 'other' };
    }
    case 'identifier':
      return { kind: 'name', name: node.text };
    default:
      return undefined;
  }
}

/** The identifier `node` when it is the `name` of a parent of type `declarator`: that parent, else undefined. */
export function declaratorOf(node: Node, declarator: string): Node | undefined {
  const parent = node.parent;
  return node.type === 'identifier' && parent?.type === declarator && sameNode(parent.childForFieldName('name'), node) ? parent : undefined;
}

/** Facts from a file's imports by two patterns (Cassandra drivers, other SQL APIs); no Spring, no mapper. */
export function importFacts(imports: readonly string[], cassandra: RegExp, otherSql: RegExp): FileFacts {
  return { cassandra: imports.some((i) => cassandra.test(i)), otherSql: imports.some((i) => otherSql.test(i)), spring: false, mapper: false };
}
