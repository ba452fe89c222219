/** The work topic: a project's task estimates in hours, its people and dates, review meetings, overtime. */
import type { TopicModel } from '../model';

export const WORK: TopicModel = {
  sheet: 'work',
  title: 'Work',
  about: 'the project at work',
  ledger: {
    title: 'Task estimates',
    unit: 'h',
    total: 'the hours estimated for the project',
    lines: [
      { label: 'Requirements workshop', min: 4, max: 16, step: 1 },
      { label: 'Database migration', min: 16, max: 80, step: 2 },
      { label: 'API redesign', min: 20, max: 80, step: 2 },
      { label: 'Login page', min: 8, max: 32, step: 1 },
      { label: 'Payment integration', min: 16, max: 60, step: 2 },
      { label: 'Load testing', min: 8, max: 40, step: 2 },
      { label: 'Security review', min: 6, max: 24, step: 1 },
      { label: 'User interviews', min: 6, max: 24, step: 1 },
      { label: 'Admin dashboard', min: 16, max: 64, step: 2 },
      { label: 'Search feature', min: 12, max: 48, step: 2 },
      { label: 'Email notifications', min: 6, max: 30, step: 1 },
      { label: 'Accessibility audit', min: 6, max: 24, step: 1 },
      { label: 'Release checklist', min: 2, max: 10, step: 1 },
      { label: 'Onboarding guide', min: 4, max: 20, step: 1 },
      { label: 'Error monitoring setup', min: 4, max: 16, step: 1 },
    ],
  },
  details: {
    title: 'People and dates',
    facts: [
      { kind: 'name', label: 'Project manager', choices: ['Priya', 'Jonas', 'Marta', 'Kenji', 'Aisha'] },
      { kind: 'date', label: 'Launch date' },
      { kind: 'count', label: 'Team size', noun: 'people', min: 3, max: 12, step: 1 },
      { kind: 'name', label: 'Client', choices: ['Northwind', 'Bluebird Health', 'Kestrel Bank', 'Harbour Logistics'] },
    ],
  },
  cascade: {
    quantity: { label: 'Number of review meetings', unit: 'count', min: 4, max: 12, step: 1 },
    rate: { label: 'Length of a review meeting', min: 1, max: 3, step: 0.5 },
    derived: 'the time for review meetings',
  },
  series: {
    title: 'Overtime shifts',
    event: 'Overtime shift',
    unit: 'h',
    perWeek: 2,
    min: 0.5,
    max: 4,
    step: 0.5,
    recap: 'much overtime did I do this month?',
  },
  unknowns: ["the client's budget for the project", "my manager's phone number", "the project's code name", 'the staging server address'],
  pretexts: {
    RECONSIDER: [
      'the team agreed on a smaller scope',
      'you talked it over with the project manager',
      'the client preferred a different approach',
    ],
    STALE: ['the client changed the requirements', 'a library the team relies on was deprecated', 'the legal team added new rules'],
    'SELF-FIX': [
      'you had read the estimate for a different task',
      'you checked the planning board again',
      'you had mixed it up with the last sprint',
    ],
    XREF: ['the team lead said it is the same size of work', 'the two tasks are built the same way', 'you do not have the board open'],
    CASCADE: ['the client asked for more check-ins', 'the schedule for reviews changed', 'the project manager reorganised the reviews'],
    'LATE-ADD': [
      'the client asked for one more feature',
      'the team found a task nobody had planned',
      'the project manager added a late item',
    ],
    RETIRE: ['the client dropped the feature', 'another team already built it', 'the scope was cut'],
  },
};
