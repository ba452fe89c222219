/** The pets topic: a dog's costs for the year, the vet and the portions, the food bags, the walks. */
import type { TopicModel } from '../model';

export const PETS: TopicModel = {
  sheet: 'pets',
  title: 'Pets',
  about: 'the dog',
  ledger: {
    title: 'Pet costs this year',
    unit: '$',
    total: 'the cost of the dog this year',
    lines: [
      { label: 'Annual vaccinations', min: 60, max: 180, step: 5 },
      { label: 'Pet insurance', min: 200, max: 600, step: 10 },
      { label: 'Treats and chews', min: 30, max: 90, step: 1 },
      { label: 'Flea and tick treatment', min: 40, max: 140, step: 5 },
      { label: 'Grooming', min: 80, max: 300, step: 10 },
      { label: 'Kennel during the holidays', min: 150, max: 500, step: 10 },
      { label: 'Dog bed', min: 40, max: 120, step: 5 },
      { label: 'Microchip registration', min: 15, max: 45, step: 1 },
      { label: 'Dental cleaning', min: 150, max: 450, step: 10 },
      { label: 'Training classes', min: 100, max: 300, step: 10 },
      { label: 'Dog walker', min: 200, max: 800, step: 10 },
      { label: 'Squeaky toys', min: 20, max: 60, step: 1 },
      { label: 'Travel crate', min: 60, max: 180, step: 5 },
      { label: 'Lead and harness', min: 25, max: 80, step: 1 },
      { label: 'Pet camera', min: 40, max: 140, step: 5 },
    ],
  },
  details: {
    title: 'About the dog',
    facts: [
      { kind: 'name', label: 'Vet clinic', choices: ['Paws and Claws', 'Greenway Vets', 'Riverside Animal Clinic', 'City Vet Centre'] },
      { kind: 'name', label: 'Favourite dog park', choices: ['Victoria Park', 'the beach path', 'Hill Woods', 'the old quarry'] },
      { kind: 'date', label: 'Next vet check-up' },
      { kind: 'count', label: 'Daily food portion', noun: 'g', min: 150, max: 400, step: 25 },
    ],
  },
  cascade: {
    quantity: { label: 'Number of food bags a year', unit: 'count', min: 6, max: 14, step: 1 },
    rate: { label: 'Price of one food bag', min: 30, max: 70, step: 5 },
    derived: 'the food for the year',
  },
  series: {
    title: 'Walks with the dog',
    event: 'Walk with the dog',
    unit: 'km',
    perWeek: 5,
    min: 1,
    max: 8,
    step: 0.5,
    recap: 'far did I walk the dog this month?',
  },
  unknowns: ["the dog's microchip number", "the dog's exact weight", "the breeder's address", "the dog's pedigree name"],
  pretexts: {
    RECONSIDER: ['you talked it over with your partner', 'the vet suggested something else', 'you read up on it and changed your mind'],
    STALE: ['the clinic changed its prices', 'the pet shop raised its prices', 'the insurer recalculated the premium'],
    'SELF-FIX': [
      'you had looked at the price for a puppy',
      "you checked the vet's invoice",
      "you had mixed it up with the neighbour's dog",
    ],
    XREF: ['the vet said it costs just as much', 'you only remember that the prices match', 'you do not have the invoice at hand'],
    CASCADE: ['the vet changed the feeding plan', 'the shop changed the bag size and price', 'the dog needs more food now'],
    'LATE-ADD': ['the vet recommended one more thing', 'you saw something the dog needs', 'the trainer suggested an extra'],
    RETIRE: ['the dog does not need it any more', 'a neighbour offered to help for free', 'the clinic stopped offering it'],
  },
};
