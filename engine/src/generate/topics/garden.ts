/** The garden topic: a season's garden plan, the garden centre and planting, the new turf, the harvests. */
import type { TopicModel } from '../model';

export const GARDEN: TopicModel = {
  sheet: 'garden',
  title: 'Garden',
  about: 'the garden this season',
  ledger: {
    title: 'Garden plan',
    unit: '$',
    total: 'the garden budget',
    lines: [
      { label: 'Raised beds', min: 80, max: 300, step: 10 },
      { label: 'Topsoil delivery', min: 60, max: 200, step: 5 },
      { label: 'Compost bin', min: 30, max: 90, step: 1 },
      { label: 'Fruit trees', min: 80, max: 300, step: 10 },
      { label: 'Rose bushes', min: 30, max: 120, step: 5 },
      { label: 'Garden hose', min: 20, max: 60, step: 1 },
      { label: 'Drip irrigation kit', min: 40, max: 150, step: 5 },
      { label: 'Lawn mower', min: 150, max: 500, step: 10 },
      { label: 'Garden shed', min: 400, max: 1200, step: 50 },
      { label: 'Bird feeder', min: 15, max: 45, step: 1 },
      { label: 'Fence paint', min: 30, max: 90, step: 1 },
      { label: 'Patio lanterns', min: 25, max: 80, step: 1 },
      { label: 'Seed packets', min: 10, max: 40, step: 1 },
      { label: 'Pruning shears', min: 15, max: 50, step: 1 },
      { label: 'Wheelbarrow', min: 50, max: 150, step: 5 },
      { label: 'Small greenhouse', min: 150, max: 500, step: 10 },
    ],
  },
  details: {
    title: 'Plants and people',
    facts: [
      { kind: 'name', label: 'Garden centre', choices: ['Green Thumb', 'Hillside Nursery', 'the weekend market', 'Bloom and Root'] },
      { kind: 'date', label: 'Planting day' },
      { kind: 'count', label: 'Tomato plants', noun: 'plants', min: 4, max: 16, step: 2 },
      { kind: 'name', label: 'Helpful neighbour', choices: ['Mrs Keller', 'old Mr Walsh', 'Nadia next door', 'the Costas'] },
    ],
  },
  cascade: {
    quantity: { label: 'Lawn area', unit: 'm²', min: 20, max: 80, step: 5 },
    rate: { label: 'Turf price per square metre', min: 5, max: 15, step: 1 },
    derived: 'the new turf',
  },
  series: {
    title: 'Harvests',
    event: 'Harvest',
    unit: 'kg',
    perWeek: 1,
    min: 0.5,
    max: 5,
    step: 0.5,
    recap: 'much did I harvest this month?',
  },
  unknowns: ["the soil's pH", "the garden's exact size", 'the name of the apple variety', "the shed's serial number"],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your partner',
      'you saw a better idea at the garden centre',
      'you decided to keep the garden simpler',
    ],
    STALE: [
      'the garden centre changed its prices',
      'prices went up for the new season',
      'the supplier ran out and the alternative costs more',
    ],
    'SELF-FIX': [
      'you had read the price for a smaller size',
      'you checked the receipt again',
      "you had mixed it up with last year's order",
    ],
    XREF: ['the garden centre prices them alike', 'you only remember that they match', 'you do not have the receipt to hand'],
    CASCADE: ['you measured the lawn again', 'you gave part of the lawn to a new flower bed', 'the turf supplier changed the offer'],
    'LATE-ADD': [
      'a neighbour recommended one more thing',
      'you spotted something at the market',
      'the garden needs one more thing for the summer',
    ],
    RETIRE: ['a neighbour had a spare one', 'you found you do not need it', 'there is no room for it after all'],
  },
};
