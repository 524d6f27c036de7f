import type { BuildOptions } from 'esbuild';

/** esbuild options of each bundle (`production`: minified, no source maps). */
export function bundleOptions(production: boolean): (BuildOptions & { outfile: string })[];

/** The .wasm files the embedded reader loads (runtime and grammars), as absolute paths in node_modules. */
export function treeSitterFiles(): string[];

/** Copies them into `<dist>/tree-sitter/`. */
export function copyTreeSitter(dist: string): Promise<void>;
