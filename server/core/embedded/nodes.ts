// Small helpers over tree-sitter nodes shared by the language modules.
//
// Parents come from parentOf, not Node.parent: web-tree-sitter finds a node's parent by walking down from the
// root, scanning each level's children, so climbing from a literal in a class of 3,000 methods, or out of a
// 10,000-deep concatenation, would be quadratic. nodeAt descends once from the root and remembers each node's
// parent on the way; parentOf reads that, and falls back to Node.parent for a node it has not seen.
import type { Expr, FileFacts, Node } from './syntax';

let parents: Map<string, Node> | undefined;

const nodeKey = (node: Node): string => `${node.id}:${node.startIndex}:${node.endIndex}`;

/** The parent of a node (null at the root). */
export function parentOf(node: Node | null | undefined): Node | null {
  if (!node) return null;
  return parents?.get(nodeKey(node)) ?? node.parent;
}

/** The root of a node's tree. */
export function treeRoot(node: Node): Node {
  let current = node;
  for (let parent = parentOf(current); parent; parent = parentOf(current)) current = parent;
  return current;
}

/** Runs `read` with a fresh memory of parents (one parse's nodes), forgotten after. */
export function withParents<T>(read: () => T): T {
  const outer = parents;
  parents = new Map();
  try {
    return read();
  } finally {
    parents = outer;
  }
}

/** The smallest node of `root`'s tree covering [start, end), remembering the parents on the way down. */
export function nodeAt(root: Node, start: number, end: number): Node {
  let current = root;
  for (let child = root.firstChildForIndex(start); child; child = current.firstChildForIndex(start)) {
    // endIndex is a call into the runtime each time it is read: once per level here.
    const childEnd = child.endIndex;
    if (child.startIndex > start || childEnd < end) break;
    parents?.set(`${child.id}:${child.startIndex}:${childEnd}`, current);
    current = child;
  }
  return current;
}

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
  for (let i = 0; current && i <= steps; i++, current = parentOf(current)) {
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
  for (let p = parentOf(node); p; p = parentOf(p)) if (types.has(p.type)) return p;
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
      return left && right && node.childForFieldName('operator')?.type === '+'
        ? { kind: 'concat', operands: [left, right] }
        : { kind: 'other' };
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
  const parent = parentOf(node);
  return node.type === 'identifier' && parent?.type === declarator && sameNode(parent.childForFieldName('name'), node)
    ? parent
    : undefined;
}

/** Facts from a file's imports by two patterns (Cassandra drivers, other SQL APIs); no Spring, no mapper. */
export function importFacts(imports: readonly string[], cassandra: RegExp, otherSql: RegExp): FileFacts {
  return {
    cassandra: imports.some((i) => cassandra.test(i)),
    otherSql: imports.some((i) => otherSql.test(i)),
    spring: false,
    mapper: false,
  };
}
