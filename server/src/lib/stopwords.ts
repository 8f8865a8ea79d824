/**
 * English function words that carry no topic, shared by the text analyses (content keywords and
 * summaries, help-chat retrieval). Each analysis adds the words only its kind of text has.
 */
export const englishStopwords: readonly string[] = `
a about above after again all also am an and any are as at be because been before being below
between both but by can can't could did do does doesn't doing don't down during each few for from
further get got had has have having he her here hers him his how i i'm i've if in into is isn't it
it's its itself just know me more most my myself no nor not now of off on once only or other our
ours out over own really same she should so some such than that the their theirs them then there
there's these they thing things this those through to too under until up very was we were what when
where which while who whom why will with would you your yours yourself okay ok want still make way
`
  .trim()
  .split(/\s+/);
