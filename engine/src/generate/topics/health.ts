/** The health topic: a year's health costs, the doctor and the doses, a physio course, a workout log. */
import type { TopicModel } from '../model';

export const HEALTH: TopicModel = {
  sheet: 'health',
  title: 'Health',
  about: 'your health routine',
  ledger: {
    title: 'Health costs this year',
    unit: '$',
    total: 'the health spending for the year',
    lines: [
      { label: 'Gym membership', min: 300, max: 700, step: 10 },
      { label: 'Omega oil capsules', min: 15, max: 45, step: 1 },
      { label: 'Blood pressure monitor', min: 40, max: 95, step: 1 },
      { label: 'Dental check-up', min: 60, max: 180, step: 5 },
      { label: 'Eye test', min: 30, max: 90, step: 1 },
      { label: 'New glasses', min: 150, max: 450, step: 10 },
      { label: 'Osteopath visit', min: 50, max: 95, step: 1 },
      { label: 'Flu jab', min: 15, max: 45, step: 1 },
      { label: 'Blood test panel', min: 60, max: 160, step: 5 },
      { label: 'Allergy pills', min: 10, max: 40, step: 1 },
      { label: 'Sleep tracker ring', min: 200, max: 400, step: 10 },
      { label: 'Yoga class pass', min: 80, max: 200, step: 5 },
      { label: 'Ergonomic pillow', min: 30, max: 90, step: 1 },
      { label: 'Dermatologist visit', min: 80, max: 200, step: 5 },
      { label: 'Pharmacy first aid kit', min: 20, max: 60, step: 1 },
    ],
  },
  details: {
    title: 'Doctors and doses',
    facts: [
      { kind: 'name', label: 'Family doctor', choices: ['Dr Okafor', 'Dr Lindqvist', 'Dr Moreau', 'Dr Haddad', 'Dr Brennan'] },
      { kind: 'count', label: 'Vitamin D dose', noun: 'IU', min: 1000, max: 5000, step: 1000 },
      { kind: 'count', label: 'Magnesium dose', noun: 'mg', min: 100, max: 400, step: 50 },
      { kind: 'date', label: 'Cardiology appointment' },
      { kind: 'count', label: 'Daily step goal', noun: 'steps', min: 6000, max: 12000, step: 500 },
    ],
  },
  cascade: {
    quantity: { label: 'Number of physio sessions', unit: 'count', min: 4, max: 12, step: 1 },
    rate: { label: 'Fee per physio session', min: 40, max: 90, step: 5 },
    derived: 'the physiotherapy course',
  },
  series: {
    title: 'Workouts',
    event: 'Workout',
    unit: 'min',
    perWeek: 3,
    min: 20,
    max: 90,
    step: 5,
    recap: 'many minutes did I work out this month?',
  },
  unknowns: ['my blood type', 'my health insurance policy number', 'the date of my last tetanus shot', 'my resting heart rate'],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your partner',
      'you compared a few options and found a better fit',
      'you asked the doctor and settled on something else',
    ],
    STALE: ['the pharmacy changed its prices', 'the clinic sent a new price list', 'the insurer stopped covering part of it'],
    'SELF-FIX': [
      "you had read last year's receipt",
      'you checked the prescription again',
      "you had mixed it up with your partner's figure",
    ],
    XREF: ["you don't have the receipt to hand", 'the pharmacist said it matches', 'you remember only that they are alike'],
    CASCADE: [
      'the physiotherapist changed the plan after the last check',
      'the clinic revised the course of treatment',
      'the doctor reviewed your progress',
    ],
    'LATE-ADD': [
      'the doctor recommended one more thing at the check-up',
      'you found something useful at the pharmacy',
      'your partner pointed out something you had left off',
    ],
    RETIRE: ['the doctor said it is no longer needed', 'you found a cheaper way around it', 'your insurance now covers it in full'],
  },
};
