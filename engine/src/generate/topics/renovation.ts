/** The renovation topic: a flat's estimate, who does it and when, the hallway's tile, the contractor's payments. */
import type { TopicModel } from '../model';

export const RENOVATION: TopicModel = {
  sheet: 'renovation',
  title: 'Renovation',
  about: 'the renovation of the flat',
  ledger: {
    title: 'Estimate',
    unit: '$',
    total: 'the renovation estimate',
    lines: [
      { label: 'Demolition', min: 400, max: 1200, step: 50 },
      { label: 'Plastering', min: 600, max: 1600, step: 50 },
      { label: 'Electrical rewiring', min: 900, max: 2500, step: 50 },
      { label: 'Plumbing', min: 700, max: 2000, step: 50 },
      { label: 'Bathroom vanity', min: 250, max: 700, step: 10 },
      { label: 'Shower enclosure', min: 300, max: 900, step: 10 },
      { label: 'Kitchen worktop', min: 400, max: 1200, step: 10 },
      { label: 'Kitchen cabinets', min: 1500, max: 4500, step: 50 },
      { label: 'Interior doors', min: 500, max: 1500, step: 50 },
      { label: 'Skirting boards', min: 120, max: 360, step: 10 },
      { label: 'Paint and primer', min: 150, max: 450, step: 10 },
      { label: 'Light fittings', min: 200, max: 600, step: 10 },
      { label: 'Radiators', min: 600, max: 1800, step: 50 },
      { label: 'Window sills', min: 100, max: 300, step: 10 },
      { label: 'Skip hire', min: 150, max: 400, step: 10 },
    ],
  },
  details: {
    title: 'Who and when',
    facts: [
      { kind: 'name', label: 'Main contractor', choices: ['Giorgi', 'Marek', 'Dario', 'Sean', 'Tomasz'] },
      { kind: 'date', label: 'Start of works' },
      { kind: 'count', label: 'Rooms to redo', noun: 'rooms', min: 2, max: 5, step: 1 },
      { kind: 'name', label: 'Wall colour', choices: ['warm white', 'sage green', 'pale grey', 'sand beige', 'soft blue'] },
    ],
  },
  cascade: {
    quantity: { label: 'Hallway floor area', unit: 'm²', min: 5, max: 12, step: 0.5 },
    rate: { label: 'Floor tile price', min: 20, max: 60, step: 1 },
    derived: 'the floor tile for the hallway',
  },
  series: {
    title: 'Contractor payments',
    event: 'Payment to the contractor',
    unit: '$',
    perWeek: 1,
    min: 300,
    max: 1500,
    step: 50,
    recap: 'much did I pay the contractor this month?',
  },
  unknowns: ['the building permit number', "the flat's ceiling height", "the contractor's insurance company", 'the brand of the boiler'],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your partner',
      'you saw a nicer option at the showroom',
      'you decided to spend less on this part',
    ],
    STALE: [
      'the contractor sent a new price list',
      'the supplier raised prices this month',
      'the shop discontinued the model you had picked',
    ],
    'SELF-FIX': [
      'you had read the wrong line of the quote',
      "you had the number from the developer's plan",
      "you checked the contractor's written estimate",
    ],
    XREF: [
      "you don't want to repeat the figure",
      'the contractor said it is exactly the same item',
      'you are in a hurry and it matches anyway',
    ],
    CASCADE: [
      'the contractor redid the measurements and the quote',
      'the plan for the hallway changed',
      'the supplier and the contractor revised the numbers',
    ],
    'LATE-ADD': [
      'the contractor found one more thing to do',
      'you decided on an extra once the walls were done',
      'your partner wants one more item',
    ],
    RETIRE: ['it does not fit after all', 'you decided to keep the old one', 'the contractor says it is not needed'],
  },
};
