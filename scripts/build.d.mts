import type { BuildOptions } from 'esbuild';

/** esbuild options of each bundle (`production`: minified, no source maps). */
export function bundleOptions(production: boolean): (BuildOptions & { outfile: string })[];
