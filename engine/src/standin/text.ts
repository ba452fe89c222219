/** Small text tools of the stand-in model: words, numbers, token estimates. */

const STOP = new Set(`a about after again all also am an and any are as at be been before being but by can could did do does
done for from had has have he her here him his how i if in into is it its just me more most my no not now of on once only or
other our out over own same she should so some such than that the their them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your yours let tell say said
please search memory notes much many first end`.split(/\s+/));

/** Significant words, lower case, roughly stemmed (`quoted`, `quotes` → `quot`). */
export function keywords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'’-]+/g) ?? [])
    .map((w) => w.replace(/['’]s$/, ''))
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(?<=[a-z]{3})(ing|ed|es|e|s)$/, ''));
}

/** Numbers and clock times as written, without thousands separators: `£1,290` → `1290`. */
export function numbers(text: string): string[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?(?::\d\d)?/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, ''));
}

/** A rough token count (4 characters a token): deterministic, for the stand-in's usage figures. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const DONT_KNOW = /never told|didn[’']t tell|did not tell|haven[’']t told|have not told|don[’']t know|do not know|no record|not sure|can[’']t find|cannot find|no information/i;

export function saysDontKnow(reply: string): boolean {
  return DONT_KNOW.test(reply);
}
