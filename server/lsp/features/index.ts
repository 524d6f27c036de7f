// Every feature the server registers, in order. Adding a feature is one import and one entry here;
// its capabilities are advertised only because it is listed.
import type { Feature } from '../context';
import { diagnosticsFeature } from './diagnostics';
// Editor features (completion, hover, navigation, symbols, semantic tokens, folding, selection, formatting).
import { editorFeatures } from './formatting';

export const defaultFeatures: readonly Feature[] = [
  diagnosticsFeature,
  ...editorFeatures(),
];
