// Every feature the server registers, in order. Adding a feature is one import and one entry here;
// its capabilities are advertised only because it is listed.
import type { Feature } from '../context';
import { diagnosticsFeature } from './diagnostics';
import { codeActionsFeature } from './code-actions';
// Editor features (completion, hover, navigation, symbols, semantic tokens, folding, selection, formatting).
import { editorFeatures } from './formatting';
// Tokens and shards: key preview in the hover, inlay hints, cqlint/tokenAt.
import { keyPreviewFeature } from './key-preview';
import { inlayHintsFeature } from './inlay-hints';
import { tokenAtFeature } from './token-at';
import { partitionReportFeature } from './partition-report';

export const defaultFeatures: readonly Feature[] = [
  diagnosticsFeature,
  codeActionsFeature,
  ...editorFeatures(),
  keyPreviewFeature,
  inlayHintsFeature,
  tokenAtFeature,
  partitionReportFeature,
];
