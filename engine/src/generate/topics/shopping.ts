/** The shopping topic: a season's shopping list, where and when to buy, dining chairs, grocery runs. */
import type { TopicModel } from '../model';

export const SHOPPING: TopicModel = {
  sheet: 'shopping',
  title: 'Shopping',
  about: 'the shopping plan for the new season',
  ledger: {
    title: 'Shopping list',
    unit: '$',
    total: 'the shopping plan',
    lines: [
      { label: 'Winter coat', min: 120, max: 400, step: 10 },
      { label: 'Leather boots', min: 90, max: 250, step: 5 },
      { label: 'Office chair', min: 150, max: 500, step: 10 },
      { label: 'Desk lamp', min: 25, max: 90, step: 1 },
      { label: 'Bedding set', min: 60, max: 180, step: 5 },
      { label: 'Blender', min: 40, max: 150, step: 5 },
      { label: 'Vacuum cleaner', min: 120, max: 450, step: 10 },
      { label: 'Coffee machine', min: 150, max: 600, step: 10 },
      { label: 'Air purifier', min: 100, max: 350, step: 10 },
      { label: 'Bath towels', min: 30, max: 90, step: 1 },
      { label: 'Kitchen knives', min: 50, max: 200, step: 5 },
      { label: 'Backpack', min: 40, max: 150, step: 5 },
      { label: 'Rain boots', min: 30, max: 80, step: 1 },
      { label: 'Headphones', min: 80, max: 350, step: 10 },
      { label: 'Suitcase', min: 80, max: 300, step: 10 },
      { label: 'Houseplants', min: 20, max: 70, step: 1 },
    ],
  },
  details: {
    title: 'Where and when',
    facts: [
      { kind: 'name', label: 'Favourite shop', choices: ['Hygge Home', 'the outlet mall', 'Markthalle', 'Corner Hardware'] },
      { kind: 'date', label: 'Sale starts' },
      { kind: 'count', label: 'Gift cards to use', noun: 'gift cards', min: 1, max: 4, step: 1 },
      { kind: 'name', label: 'Delivery service', choices: ['DHL', 'the local courier', 'PostNord', 'DPD'] },
    ],
  },
  cascade: {
    quantity: { label: 'Number of dining chairs', unit: 'count', min: 2, max: 8, step: 1 },
    rate: { label: 'Price per dining chair', min: 40, max: 150, step: 5 },
    derived: 'the dining chairs',
  },
  series: {
    title: 'Grocery runs',
    event: 'Grocery run',
    unit: '$',
    perWeek: 2,
    min: 20,
    max: 150,
    step: 5,
    recap: 'much did I spend on groceries this month?',
  },
  unknowns: ['my loyalty card number', "the shop's return address", "the coat's exact size", 'the order number of the coffee machine'],
  pretexts: {
    RECONSIDER: [
      'you tried it in the shop and picked another',
      'you talked it over with your partner',
      'you read the reviews and changed your mind',
    ],
    STALE: ['the sale ended', 'the shop raised its prices', 'the model went out of stock and its successor costs more'],
    'SELF-FIX': ['you had looked at the price without tax', "you checked the shop's website again", 'you had the price of a smaller size'],
    XREF: ['the shop sells them at one price', 'you only remember that they cost the same', 'the shop assistant said they match'],
    CASCADE: ['you decided on a bigger table', 'more guests come for dinner these days', 'the shop changed its chair prices'],
    'LATE-ADD': [
      'you remembered one more thing you need',
      'your partner added something to the list',
      'something broke and needs replacing',
    ],
    RETIRE: ['a friend had a spare one', 'you found you do not need it', 'the old one still works'],
  },
};
