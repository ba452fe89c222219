/** The trip topic: a holiday's bookings, where and with whom, the nights in a mountain lodge, a trip fund. */
import type { TopicModel } from '../model';

export const TRIP: TopicModel = {
  sheet: 'trip',
  title: 'Trip',
  about: 'the trip you are planning',
  ledger: {
    title: 'Bookings',
    unit: '$',
    total: 'the cost of the trip',
    lines: [
      { label: 'Return flights', min: 300, max: 1200, step: 10 },
      { label: 'Airport transfer', min: 30, max: 90, step: 5 },
      { label: 'Old town hotel', min: 300, max: 900, step: 10 },
      { label: 'Beach resort stay', min: 400, max: 1400, step: 50 },
      { label: 'Rental car', min: 150, max: 500, step: 10 },
      { label: 'Travel insurance', min: 40, max: 140, step: 5 },
      { label: 'Boat tour', min: 60, max: 200, step: 5 },
      { label: 'Museum pass', min: 30, max: 90, step: 5 },
      { label: 'Wine tasting', min: 40, max: 120, step: 5 },
      { label: 'Train tickets', min: 40, max: 160, step: 5 },
      { label: 'Guided hike', min: 50, max: 150, step: 5 },
      { label: 'Airport parking', min: 40, max: 140, step: 5 },
      { label: 'Checked luggage fee', min: 40, max: 120, step: 5 },
      { label: 'Visa fee', min: 20, max: 80, step: 5 },
      { label: 'Rooftop dinner', min: 80, max: 220, step: 5 },
      { label: 'Day trip to the islands', min: 70, max: 200, step: 5 },
    ],
  },
  details: {
    title: 'Travel plans',
    facts: [
      { kind: 'name', label: 'Destination', choices: ['Cappadocia', 'Lisbon', 'Crete', 'the Dolomites', 'Kyoto'] },
      { kind: 'date', label: 'Departure day' },
      { kind: 'count', label: 'Travellers', noun: 'people', min: 2, max: 6, step: 1 },
      { kind: 'name', label: 'Airline', choices: ['Pegasus', 'TAP', 'Aegean', 'Lufthansa', 'Wizz Air'] },
    ],
  },
  cascade: {
    quantity: { label: 'Number of nights in the mountain lodge', unit: 'count', min: 2, max: 7, step: 1 },
    rate: { label: 'Mountain lodge rate per night', min: 70, max: 180, step: 5 },
    derived: 'the mountain lodge stay',
  },
  series: {
    title: 'Trip fund deposits',
    event: 'Trip fund deposit',
    unit: '$',
    perWeek: 1,
    min: 50,
    max: 300,
    step: 10,
    recap: 'much did I put aside for the trip this month?',
  },
  unknowns: ['my passport number', 'the flight number', "the hotel's booking reference", 'my seat on the plane'],
  pretexts: {
    RECONSIDER: [
      'your partner and you picked a different option',
      'you read the reviews again and switched',
      'you decided to save a little on this part',
    ],
    STALE: ['the airline changed its fares', 'the trip moved by two days', 'the hotel updated its rates for the season'],
    'SELF-FIX': [
      'you had looked at the price for one person',
      'you checked the booking confirmation',
      'you had the figure from an older search',
    ],
    XREF: ['the travel agent said it costs exactly as much', 'you are booking in a hurry', 'you remember only that they match'],
    CASCADE: ['the plan for the mountain days changed', 'the lodge changed its offer', 'you rearranged the days of the trip'],
    'LATE-ADD': [
      'a friend recommended one more thing to book',
      'you found an extra worth adding',
      'your partner wants one more thing on the trip',
    ],
    RETIRE: ['the operator cancelled it', 'you decided to skip it', 'the weather forecast made it pointless'],
  },
};
