import { englishStopwords } from '../lib/stopwords';

/**
 * Text normalisation for FAQ retrieval: lower-case words, stop words dropped, a light suffix
 * stemmer, and a few product synonyms. The same functions index the FAQ and read the question,
 * so they only need to be consistent, not linguistically perfect.
 */

/** The shared English function words, plus what questions to a help desk have: greetings, courtesy, asking words, contractions typed without the apostrophe. */
const stopwords = new Set([
  ...englishStopwords,
  ...`let hi hello hey please thanks thank gathercast need tell anyone someone something cant dont doesnt
isnt wont im ive exist exists existing work works working happen happens possible able use using
mean means meaning`.split(/\s+/),
]);

/** Strips common English suffixes so "recordings", "recorded" and "recording" meet on "record". */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/**
 * Words people use for product concepts the FAQ names differently. A question word adds its
 * concept words to the query (it is never replaced), so exact wording still counts most.
 */
const synonymsByWord: Record<string, string[]> = {
  webinar: ['broadcast'],
  livestream: ['broadcast', 'live'],
  stream: ['broadcast'],
  streaming: ['broadcast'],
  stage: ['broadcast'],
  watch: ['viewer'],
  watching: ['viewer'],
  audience: ['viewer'],
  attendee: ['participant', 'viewer'],
  attend: ['join'],
  speed: ['rotation'],
  networking: ['rotation'],
  round: ['rotation'],
  rotate: ['rotation'],
  table: ['breakout'],
  group: ['breakout'],
  groups: ['breakout'],
  qa: ['question'],
  ask: ['question'],
  upvote: ['vote'],
  camera: ['media', 'camera'],
  webcam: ['camera', 'media'],
  mic: ['microphone', 'media'],
  video: ['camera', 'media'],
  replay: ['recording'],
  vod: ['recording'],
  record: ['recording'],
  signup: ['register'],
  registration: ['register'],
  ticket: ['register'],
  begin: ['start'],
  launch: ['start'],
  stop: ['end'],
  finish: ['end'],
  cancel: ['end'],
  extension: ['extend'],
  longer: ['extend'],
  invitation: ['invite'],
  captions: ['transcript'],
  transcription: ['transcript'],
  recap: ['summary'],
  notes: ['summary'],
  waiting: ['lobby'],
  admit: ['lobby'],
  agenda: ['phase'],
  segment: ['phase'],
  next: ['advance'],
  permission: ['role'],
  permissions: ['role'],
  moderator: ['host'],
  colleague: ['people', 'member'],
  teammate: ['people', 'member'],
  coworker: ['people', 'member'],
  private: ['visibility'],
  public: ['visibility'],
  unlisted: ['visibility'],
  password: ['password', 'reset'],
  forgot: ['reset'],
  maximum: ['capacity'],
  max: ['capacity'],
  full: ['capacity'],
  seats: ['capacity'],
  organiser: ['host'],
  organizer: ['host'],
  apikey: ['api', 'key'],
  callback: ['webhook'],
  notification: ['webhook'],
  signature: ['signature', 'verify'],
  error: ['error', 'problem'],
};

const synonyms = new Map(
  Object.entries(synonymsByWord).map(([word, extra]) => [stem(word), extra.map(stem)] as const),
);

/** Phrases that tokenising would break apart. */
const phrases: [RegExp, string][] = [
  [/\bq\s*&\s*a\b|\bq\s*and\s*a\b|\bqna\b/g, ' qa '],
  [/\bapi[\s-]+keys?\b/g, ' apikey api key '],
  [/\bsign(?:ed|ing)?[\s-]+up\b/g, ' signup '],
  [/\bsign(?:ed|ing)?[\s-]+in\b|\blog(?:ged|ging)?[\s-]+in\b/g, ' login '],
  [/\bgo(?:es|ing)?[\s-]+live\b|\bwent\s+live\b/g, ' start live '],
  [/\bbreak[\s-]+outs?\b/g, ' breakout '],
  [/\bspeed[\s-]+dating\b/g, ' rotation '],
  [/\bmore\s+time\b/g, ' extend '],
];

/** The raw words of a text, lower-cased, accents folded, phrases joined, stop words dropped. */
export function words(text: string): string[] {
  let t = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  for (const [pattern, replacement] of phrases) t = t.replace(pattern, replacement);
  return (t.match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []).filter((w) => !stopwords.has(w) && w.length > 1);
}

/** Indexed terms of a text (stemmed words plus their synonyms), in order, with repeats. */
export function terms(text: string): string[] {
  return words(text).flatMap((w) => {
    const s = stem(w);
    return [s, ...(synonyms.get(s) ?? [])];
  });
}

/**
 * One group per question word: the stemmed word and its synonyms. A group counts once, at its best
 * matching term, so a synonym never doubles a word's weight.
 */
export function termGroups(text: string): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const w of words(text)) {
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    groups.push([s, ...(synonyms.get(s) ?? []).filter((x) => x !== s)]);
  }
  return groups;
}
