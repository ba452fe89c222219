/** The savings topic: the year's savings goals, the bank and the adviser, the monthly transfer, deposits. */
import type { TopicModel } from '../model';

export const SAVINGS: TopicModel = {
  sheet: 'savings',
  title: 'Savings',
  about: 'your savings',
  ledger: {
    title: 'Savings goals',
    unit: '$',
    total: 'the sum of the savings goals',
    lines: [
      { label: 'Emergency fund top-up', min: 500, max: 3000, step: 50 },
      { label: 'Holiday fund', min: 300, max: 1500, step: 50 },
      { label: 'New laptop fund', min: 600, max: 2000, step: 50 },
      { label: 'Wedding fund', min: 1000, max: 5000, step: 100 },
      { label: 'Bike fund', min: 300, max: 1200, step: 50 },
      { label: 'Driving lessons fund', min: 400, max: 1200, step: 50 },
      { label: 'Christmas fund', min: 200, max: 800, step: 50 },
      { label: 'Home deposit top-up', min: 1000, max: 6000, step: 100 },
      { label: 'Course fees fund', min: 300, max: 1500, step: 50 },
      { label: 'Charity donations', min: 100, max: 600, step: 10 },
      { label: 'Dental work fund', min: 300, max: 1500, step: 50 },
      { label: 'Furniture fund', min: 400, max: 2000, step: 50 },
      { label: 'Phone upgrade fund', min: 300, max: 1000, step: 50 },
      { label: 'Concert tickets fund', min: 100, max: 400, step: 10 },
      { label: 'Gift fund', min: 100, max: 500, step: 10 },
    ],
  },
  details: {
    title: 'The accounts',
    facts: [
      { kind: 'name', label: 'Bank', choices: ['Nordbank', 'Harbour Savings', 'City Credit Union', 'Lumen Bank'] },
      { kind: 'date', label: 'Next review of the plan' },
      { kind: 'count', label: 'Savings pots', noun: 'pots', min: 2, max: 6, step: 1 },
      { kind: 'name', label: 'Financial adviser', choices: ['Ms Novak', 'Mr Brennan', 'Ms Iyer', 'Mr Dubois'] },
    ],
  },
  cascade: {
    quantity: { label: 'Length of the plan in months', unit: 'count', min: 6, max: 24, step: 1 },
    rate: { label: 'Monthly transfer to savings', min: 100, max: 600, step: 10 },
    derived: 'the savings at the end of the plan',
  },
  series: {
    title: 'Savings deposits',
    event: 'Savings deposit',
    unit: '$',
    perWeek: 1,
    min: 20,
    max: 300,
    step: 10,
    recap: 'much did I save this month?',
  },
  unknowns: ['my account number', "the adviser's fee", 'the interest rate on the pots', 'my pension balance'],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your partner',
      'you decided to put the money to better use',
      'the adviser suggested a different balance',
    ],
    STALE: ['the bank changed its interest rates', 'prices went up', 'the target shifted after the price news'],
    'SELF-FIX': ['you had read an old statement', 'you checked the banking app', 'you had mixed up two of the pots'],
    XREF: ['the two pots were set up alike', 'you only remember that they match', 'you do not have the app open'],
    CASCADE: ['the adviser reworked the plan', 'your salary changed', 'you moved the end date of the plan'],
    'LATE-ADD': ['a new goal came up', 'your partner suggested one more pot', 'you got a small bonus'],
    RETIRE: ['the goal is no longer needed', 'you decided to drop it', 'someone else is paying for it'],
  },
};
