// Small helpers over tree-sitter nodes shared by the language modules.
import type { Node } from './syntax';

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
