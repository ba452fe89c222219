/**
 * The family topic: the year's family spending, the dates to remember, a reunion's catering, calls
 * home. It speaks of Mum, Dad and the partner, whom `pools.ts` always draws.
 */
import type { TopicModel } from '../model';

export const FAMILY: TopicModel = {
  sheet: 'family',
  title: 'Family',
  about: 'the family plans for the year',
  ledger: {
    title: 'Family spending',
    unit: '$',
    total: 'the family spending for the year',
    lines: [
      { label: 'Present for Mum', min: 30, max: 150, step: 5 },
      { label: 'Present for Dad', min: 30, max: 150, step: 5 },
      { label: 'Anniversary dinner', min: 80, max: 250, step: 5 },
      { label: 'Summer camp', min: 300, max: 900, step: 10 },
      { label: 'Piano lessons', min: 200, max: 600, step: 10 },
      { label: 'Swimming lessons', min: 100, max: 300, step: 10 },
      { label: 'Flights to see the grandparents', min: 300, max: 900, step: 10 },
      { label: 'Wedding gift for the cousin', min: 80, max: 250, step: 5 },
      { label: 'Holiday presents', min: 200, max: 600, step: 10 },
      { label: 'Babysitter', min: 100, max: 400, step: 10 },
      { label: 'Family photo shoot', min: 150, max: 400, step: 10 },
      { label: 'School trip', min: 60, max: 200, step: 5 },
      { label: 'Birthday party venue', min: 100, max: 350, step: 10 },
      { label: 'Family board games', min: 30, max: 90, step: 1 },
      { label: 'Reunion decorations', min: 40, max: 120, step: 5 },
    ],
  },
  details: {
    title: 'Dates to remember',
    facts: [
      { kind: 'date', label: "Mum's birthday" },
      { kind: 'date', label: 'Wedding anniversary' },
      { kind: 'date', label: 'Sibling visit' },
      {
        kind: 'name',
        label: 'Reunion venue',
        choices: ['the lake house', 'the old farm', 'the village hall', 'the riverside pub', "Aunt Rosa's garden"],
      },
      { kind: 'count', label: 'Number of cousins coming', noun: 'cousins', min: 2, max: 10, step: 1 },
    ],
  },
  cascade: {
    quantity: { label: 'Number of reunion guests', unit: 'count', min: 10, max: 40, step: 1 },
    rate: { label: 'Catering per guest', min: 15, max: 45, step: 1 },
    derived: 'the catering for the reunion',
  },
  series: {
    title: 'Calls home',
    event: 'Call home',
    unit: 'min',
    perWeek: 2,
    min: 10,
    max: 60,
    step: 5,
    recap: 'long did I spend on calls home this month?',
  },
  unknowns: ["my parents' wedding date", "my cousin's new address", "my grandmother's maiden name", "the reunion venue's phone number"],
  pretexts: {
    RECONSIDER: ['you talked it over with your partner', 'the family agreed on something else in the group chat', 'you found a nicer idea'],
    STALE: ['the venue sent an update', 'the school changed its plans', 'the organisers moved things around'],
    'SELF-FIX': ['you had mixed it up with last year', 'you checked the family calendar', 'you found the receipt in a drawer'],
    XREF: ['the family agreed to keep the two even', 'it was meant to match from the start', 'you cannot find the receipt'],
    CASCADE: ['more relatives confirmed for the reunion', 'the caterer changed its offer', 'the guest list changed'],
    'LATE-ADD': ['your partner remembered one more thing', 'a relative asked for one more thing', 'you thought of one more family plan'],
    RETIRE: ['the plan fell through', 'the family decided against it', 'it clashed with another event'],
  },
};
