// The answers the schema's lookups keep process-wide (module caches), let go of together by
// Project.forgetLookups once a long-lived process has linted the whole workspace: each is a pure cache,
// made again equal when asked.
import { forgetInternedNames } from '../util/names';
import { forgetVocabularyProfiles } from './columns';
import { forgetSingleLists } from './versions';
import { forgetWorkloads } from './workload';

/** Lets go of the workload answers, the statements' evidence, column profiles, one-definition lists and interned names. */
export function forgetSchemaAnswers(): void {
  forgetWorkloads();
  forgetVocabularyProfiles();
  forgetSingleLists();
  forgetInternedNames();
}
