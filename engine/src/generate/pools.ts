/**
 * The bundled pools a generated world's persona is drawn from: first names, surnames, cities, jobs
 * and a family. Names carry no digits and no commas (the world writes them into facts and answers).
 * The family always holds a partner, a mother, a father and a sibling, in that order, so the
 * library's `family` topic may speak of "your partner" and "Mum"; a child comes after when drawn.
 */
import type { PersonaModel } from './model';

export const FEMALE_NAMES: readonly string[] = [
  'Anna',
  'Lena',
  'Priya',
  'Sofia',
  'Maya',
  'Clara',
  'Nadia',
  'Ingrid',
  'Chloe',
  'Amara',
  'Yuki',
  'Elena',
  'Hannah',
  'Marta',
  'Leila',
  'Rosa',
  'Tess',
  'Ines',
];
export const MALE_NAMES: readonly string[] = [
  'Max',
  'Tom',
  'Jonas',
  'Ravi',
  'Mateo',
  'Felix',
  'Omar',
  'Lukas',
  'Daniel',
  'Kenji',
  'Pavel',
  'Samuel',
  'Hugo',
  'Ethan',
  'Nikos',
  'Aaron',
  'Bruno',
  'Theo',
];
export const SURNAMES: readonly string[] = [
  'Becker',
  'Novak',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Costa',
  'Kowalski',
  'Tanaka',
  'Haddad',
  'Walsh',
  'Fischer',
  'Petrov',
  'Iyer',
  'Santos',
  'Brennan',
  'Keller',
  'Nakamura',
  'Dubois',
  'Horvat',
  'Larsen',
  'Mendez',
  'Osei',
];
export const CITIES: readonly string[] = [
  'Bristol',
  'Lyon',
  'Porto',
  'Krakow',
  'Gothenburg',
  'Valencia',
  'Leipzig',
  'Ghent',
  'Tallinn',
  'Bologna',
  'Edinburgh',
  'Ljubljana',
  'Batumi',
  'Utrecht',
  'Graz',
  'Cork',
  'Brno',
  'Aarhus',
];
export const JOBS: readonly string[] = [
  'a backend developer',
  'a primary school teacher',
  'a nurse',
  'an architect',
  'a graphic designer',
  'an accountant',
  'a physiotherapist',
  'a civil engineer',
  'a pharmacist',
  'a data analyst',
  'a chef',
  'a translator',
  'a project manager',
  'a veterinary nurse',
  'a journalist',
  'a lab technician',
  'an electrician',
  'a product manager',
];

const YOUNGEST = 25;
const OLDEST = 60;
/** A child is drawn this often, and only for a persona old enough for one to be at school. */
const CHILD_CHANCE = 0.5;
const CHILD_FROM_AGE = 32;

/** One persona: the same `random` sequence gives the same persona on every machine. */
export function drawPersona(random: () => number): PersonaModel {
  const isWoman = random() < 0.5;
  const first = pickFrom(isWoman ? FEMALE_NAMES : MALE_NAMES, random);
  const name = `${first} ${pickFrom(SURNAMES, random)}`;
  const age = YOUNGEST + Math.floor(random() * (OLDEST - YOUNGEST + 1));
  const city = pickFrom(CITIES, random);
  const job = pickFrom(JOBS, random);
  const used = new Set([first]);
  const fresh = (pool: readonly string[]): string => {
    const free = pool.filter((candidate) => !used.has(candidate));
    const chosen = pickFrom(free, random);
    used.add(chosen);
    return chosen;
  };
  const partnerIsWoman = random() < 0.5;
  const siblingIsSister = random() < 0.5;
  const family: { relation: string; name: string }[] = [
    { relation: 'partner', name: fresh(partnerIsWoman ? FEMALE_NAMES : MALE_NAMES) },
    { relation: 'mother', name: fresh(FEMALE_NAMES) },
    { relation: 'father', name: fresh(MALE_NAMES) },
    { relation: siblingIsSister ? 'sister' : 'brother', name: fresh(siblingIsSister ? FEMALE_NAMES : MALE_NAMES) },
  ];
  if (age >= CHILD_FROM_AGE && random() < CHILD_CHANCE) {
    const isDaughter = random() < 0.5;
    family.push({ relation: isDaughter ? 'daughter' : 'son', name: fresh(isDaughter ? FEMALE_NAMES : MALE_NAMES) });
  }
  return { name, age, city, job, family };
}

function pickFrom(pool: readonly string[], random: () => number): string {
  return pool[Math.floor(random() * pool.length)] ?? pool[0] ?? '';
}
