// The lengths of the standard time periods a time bucket spans, finest first.

/** Seconds in each time bucket length (a month and a year at their mean Gregorian lengths). */
export const SECONDS = {
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 604_800,
  month: 2_629_746,
  year: 31_556_952,
} as const;

/** The bucket lengths, finest first. */
export const BUCKET_LENGTHS: readonly { name: keyof typeof SECONDS; seconds: number }[] = (
  Object.keys(SECONDS) as (keyof typeof SECONDS)[]
).map((name) => ({ name, seconds: SECONDS[name] }));
