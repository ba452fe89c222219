/** The car topic: the first year's costs of the car being bought, the choice, the fuel a month, a refuel log. */
import type { TopicModel } from '../model';

export const CAR: TopicModel = {
  sheet: 'car',
  title: 'Car',
  about: 'the car you are buying',
  ledger: {
    title: 'First-year costs',
    unit: '$',
    total: "the car's cost for the first year",
    lines: [
      { label: 'Car insurance', min: 300, max: 900, step: 10 },
      { label: 'Road tax', min: 100, max: 300, step: 10 },
      { label: 'Registration fee', min: 80, max: 250, step: 5 },
      { label: 'Winter tyre set', min: 400, max: 900, step: 10 },
      { label: 'Roof box', min: 200, max: 600, step: 10 },
      { label: 'Dashcam', min: 60, max: 200, step: 5 },
      { label: 'Child seat', min: 100, max: 350, step: 10 },
      { label: 'First service', min: 150, max: 400, step: 10 },
      { label: 'Extended warranty', min: 400, max: 1200, step: 50 },
      { label: 'Floor mats', min: 30, max: 90, step: 1 },
      { label: 'Parking permit', min: 60, max: 240, step: 5 },
      { label: 'Tow bar', min: 300, max: 800, step: 10 },
      { label: 'Windscreen repair', min: 60, max: 180, step: 5 },
      { label: 'Car wash pass', min: 40, max: 120, step: 5 },
      { label: 'Customs clearance', min: 500, max: 1500, step: 50 },
    ],
  },
  details: {
    title: 'The choice',
    facts: [
      { kind: 'name', label: 'Chosen model', choices: ['Toyota Corolla', 'Skoda Octavia', 'Honda Jazz', 'Kia Sportage', 'Volvo estate'] },
      { kind: 'name', label: 'Dealership', choices: ['Keller Autohaus', 'Motors West', 'City Cars', 'Harbour Motors'] },
      { kind: 'date', label: 'Test drive' },
      { kind: 'count', label: 'Previous owners', noun: 'owners', min: 1, max: 4, step: 1 },
    ],
  },
  cascade: {
    quantity: { label: 'Number of tank fills a month', unit: 'count', min: 2, max: 6, step: 1 },
    rate: { label: 'Cost of one tank fill', min: 60, max: 110, step: 5 },
    derived: 'the fuel for a month',
  },
  series: {
    title: 'Refuels',
    event: 'Refuel',
    unit: 'l',
    perWeek: 1,
    min: 25,
    max: 55,
    step: 1,
    recap: 'many litres of fuel did I buy this month?',
  },
  unknowns: ["the car's VIN", "the car's engine number", "the dealer's phone number", "the colour of the car's seats"],
  pretexts: {
    RECONSIDER: [
      'you test-drove it again and changed your mind',
      'you talked it over with your partner',
      'you found a better offer and switched',
    ],
    STALE: ['the dealer sent an updated price list', 'the insurer recalculated the quote', 'the new tax rates came in'],
    'SELF-FIX': [
      "you had looked at the wrong line of the dealer's offer",
      'you had the figure for another model',
      'you checked the paperwork again',
    ],
    XREF: [
      'the dealer said it is priced like the other one',
      'you only remember that they match',
      'you do not want to dig out the invoice',
    ],
    CASCADE: ['your commute changed', 'fuel prices moved and you drive more now', 'you started driving to the office'],
    'LATE-ADD': [
      'the dealer offered one more extra',
      'you realised you need something for the winter',
      'your partner asked for one more thing',
    ],
    RETIRE: ['the dealer threw it in for free', 'you found you do not need it', 'the offer was withdrawn'],
  },
};
