/** The running topic: a race season's budget, the race plans, a coaching plan, a log of training runs. */
import type { TopicModel } from '../model';

export const RUNNING: TopicModel = {
  sheet: 'running',
  title: 'Running',
  about: 'your running and the race season',
  ledger: {
    title: 'Race season budget',
    unit: '$',
    total: 'the race season budget',
    lines: [
      { label: 'Half marathon entry', min: 45, max: 95, step: 5 },
      { label: 'Trail race entry', min: 30, max: 90, step: 5 },
      { label: 'Road shoes', min: 90, max: 180, step: 5 },
      { label: 'Trail shoes', min: 100, max: 200, step: 5 },
      { label: 'GPS watch', min: 200, max: 500, step: 10 },
      { label: 'Running club fee', min: 40, max: 120, step: 5 },
      { label: 'Sports massage', min: 40, max: 90, step: 5 },
      { label: 'Compression socks', min: 15, max: 45, step: 1 },
      { label: 'Headlamp', min: 25, max: 80, step: 1 },
      { label: 'Rain jacket', min: 60, max: 180, step: 5 },
      { label: 'Energy gels', min: 20, max: 60, step: 1 },
      { label: 'Hydration vest', min: 50, max: 140, step: 5 },
      { label: 'Foam roller', min: 15, max: 45, step: 1 },
      { label: 'Waist belt for the phone', min: 10, max: 35, step: 1 },
      { label: 'Race photos', min: 15, max: 40, step: 1 },
    ],
  },
  details: {
    title: 'Race plans',
    facts: [
      {
        kind: 'name',
        label: 'Target race',
        choices: ['the Harbour Half', 'the Forest Trail Run', 'the City Ten', 'the Lakeside Half', 'the Riverside Marathon'],
      },
      { kind: 'name', label: 'Running coach', choices: ['Malik', 'Berit', 'Duarte', 'Quinn', 'Sasha'] },
      { kind: 'date', label: 'Race day' },
      { kind: 'count', label: 'Long run target', noun: 'km', min: 12, max: 24, step: 2 },
      { kind: 'name', label: 'Club night', choices: ['Monday', 'Tuesday', 'Wednesday', 'Thursday'] },
    ],
  },
  cascade: {
    quantity: { label: 'Number of coaching weeks', unit: 'count', min: 6, max: 16, step: 1 },
    rate: { label: 'Weekly coaching fee', min: 20, max: 60, step: 5 },
    derived: 'the coaching plan',
  },
  series: {
    title: 'Runs',
    event: 'Training run',
    unit: 'km',
    perWeek: 3,
    min: 3,
    max: 21,
    step: 0.5,
    recap: 'far did I run this month?',
  },
  unknowns: ['my shoe size', 'my maximum heart rate', 'my race bib number', "the name of the club's captain"],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your coach',
      'you decided to keep the season lighter',
      'you found a better option at the running shop',
    ],
    STALE: ['the organisers raised their prices', 'the running shop ended its sale', 'the club changed its fees for the new season'],
    'SELF-FIX': [
      "you had looked at last season's prices",
      'you checked your order confirmation',
      "you had mixed it up with a friend's order",
    ],
    XREF: [
      "you can't find the receipt right now",
      'the shop assistant said the price is identical',
      'you only remember that they cost the same',
    ],
    CASCADE: ['the coach reworked the training block', 'the race moved later in the season', 'the coach and you agreed on a new plan'],
    'LATE-ADD': [
      'your coach recommended one more thing',
      'you spotted something you need at the race expo',
      'the club announced an extra event',
    ],
    RETIRE: ['the race was called off', 'you decided you can do without it', 'a friend from the club lent one'],
  },
};
