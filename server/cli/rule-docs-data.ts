// The rules' documentation pages (docs/rules/<id>.md) for `cqlint explain`. Run from the sources, this
// module answers undefined and the pages are read from the checkout; the CLI bundle replaces it
// (scripts/build.mjs, bundledRuleDocs) with one that holds every page, so the packed CLI needs no docs/.

/** Every rule's page by rule id, when bundled; undefined when run from the sources. */
export function bundledRuleDocs(): Readonly<Record<string, string>> | undefined {
  return undefined;
}
