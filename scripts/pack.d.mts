/** The package.json text that ships: the manifest without its scripts, in npm's layout. */
export function packedManifest(text: string): string;
