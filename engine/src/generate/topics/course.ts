/** The course topic: a course's costs, its title, exam and instructor, tutoring hours, study sessions. */
import type { TopicModel } from '../model';

export const COURSE: TopicModel = {
  sheet: 'course',
  title: 'Course',
  about: 'the course and the exam',
  ledger: {
    title: 'Course costs',
    unit: '$',
    total: 'the cost of the course',
    lines: [
      { label: 'Tuition fee', min: 800, max: 3000, step: 50 },
      { label: 'Exam registration', min: 100, max: 400, step: 10 },
      { label: 'Textbooks', min: 60, max: 250, step: 5 },
      { label: 'Practice test bundle', min: 30, max: 120, step: 5 },
      { label: 'Online flashcards app', min: 10, max: 40, step: 1 },
      { label: 'Printing and binding', min: 15, max: 60, step: 1 },
      { label: 'Commuter pass', min: 40, max: 160, step: 5 },
      { label: 'Weekend study retreat', min: 150, max: 450, step: 10 },
      { label: 'Certification fee', min: 100, max: 350, step: 10 },
      { label: 'Library membership', min: 15, max: 50, step: 1 },
      { label: 'Scientific calculator', min: 20, max: 60, step: 1 },
      { label: 'Stationery', min: 10, max: 40, step: 1 },
      { label: 'Mock exam', min: 40, max: 120, step: 5 },
      { label: 'Graduation photos', min: 30, max: 100, step: 5 },
      { label: 'Laptop stand', min: 25, max: 70, step: 1 },
    ],
  },
  details: {
    title: 'The course',
    facts: [
      {
        kind: 'name',
        label: 'Course title',
        choices: ['Data Analytics', 'Project Management', 'Advanced Spanish', 'Accounting Basics', 'UX Design'],
      },
      { kind: 'date', label: 'Exam day' },
      { kind: 'count', label: 'Number of modules', noun: 'modules', min: 4, max: 12, step: 1 },
      { kind: 'name', label: 'Instructor', choices: ['Ms Larsen', 'Mr Osei', 'Dr Petrov', 'Ms Santos'] },
    ],
  },
  cascade: {
    quantity: { label: 'Hours of tutoring', unit: 'h', min: 4, max: 20, step: 1 },
    rate: { label: 'Hourly tutoring rate', min: 25, max: 70, step: 5 },
    derived: 'the tutoring',
  },
  series: {
    title: 'Study sessions',
    event: 'Study session',
    unit: 'h',
    perWeek: 4,
    min: 0.5,
    max: 4,
    step: 0.5,
    recap: 'many hours did I study this month?',
  },
  unknowns: ['my student ID number', 'the exam room number', 'the passing score', "the instructor's email address"],
  pretexts: {
    RECONSIDER: [
      'you talked it over with your study group',
      'you decided to go for the cheaper option',
      'the instructor recommended something else',
    ],
    STALE: ['the school updated its fees', 'the exam board raised its prices', 'the publisher released a new edition'],
    'SELF-FIX': ["you had looked at last year's fees", 'you checked the enrolment email', 'you had the figure for the part-time track'],
    XREF: ['the school charges the same for both', 'you do not have the email open', 'you only remember that they are alike'],
    CASCADE: [
      'the tutor changed the plan before the exam',
      'you need more help with the maths part',
      'the tutor and you agreed on a new plan',
    ],
    'LATE-ADD': ['the instructor recommended one more resource', 'you found a useful extra', 'the school added a required item'],
    RETIRE: ['the school included it for free', 'a classmate lent theirs', 'you decided to skip it'],
  },
};
