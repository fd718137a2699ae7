#!/usr/bin/env node
/**
 * Writes a synthetic STOREFRONT_MENU_FILE of N dishes (deterministic: the same N gives the same
 * file). Names, tags and descriptions reuse the demo menu's vocabulary so that the same query hits
 * both menus, with a realistic spread: common words ("chicken", "spicy") match thousands of dishes.
 *
 *   node bench/gen-menu.mjs 100000 /tmp/menu-100k.json
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const STYLES = ['Classic', 'Spicy', 'Smoky', 'Crispy', 'Roasted', 'Grilled', 'Braised', 'Creamy', 'Zesty', 'Golden', 'Rustic', 'Sicilian',
  'Thai', 'Korean', 'Cajun', 'Tuscan', 'Provençal', 'Bavarian', 'Andalusian', 'Nordic', 'Sichuan', 'Oaxacan', 'Levantine', 'Bengali'];
const INGREDIENTS = ['chicken', 'salmon', 'beef', 'pork', 'tofu', 'mushroom', 'halloumi', 'shrimp', 'lamb', 'duck', 'aubergine', 'chickpea',
  'tomato', 'spinach', 'pumpkin', 'cod', 'tuna', 'squid', 'crab', 'lentil', 'paneer', 'jalapeño', 'avocado', 'sweet potato', 'chorizo',
  'mozzarella', 'ricotta', 'goat cheese', 'pesto', 'truffle', 'vanilla', 'chocolate', 'mango', 'lemon', 'coconut', 'peanut', 'sesame',
  'matcha', 'espresso', 'caramel'];
const DISHES = ['pizza', 'risotto', 'burger', 'salad', 'soup', 'curry', 'skewers', 'tacos', 'bowl', 'pasta', 'ramen', 'stew', 'wrap',
  'sandwich', 'pie', 'gratin', 'tart', 'dumplings', 'noodles', 'flatbread', 'omelette', 'frittata', 'cake', 'latte', 'smoothie', 'sundae'];
const CATEGORIES = ['Starters', 'Mains', 'Pizza', 'Bowls', 'Desserts', 'Drinks', 'Sides', 'Soups', 'Salads', 'Breakfast', 'Kids', 'Specials'];
const TAGS = ['spicy', 'vegetarian', 'vegan', 'gluten-free', 'classic', 'healthy', 'cheese', 'seafood', 'fried', 'cold', 'hot', 'sweet',
  'chicken', 'beef', 'pork', 'fish', 'raw', 'spring', 'special', 'sharing', 'low-carb', 'organic', 'local', 'chef'];
const WORDS = ['with', 'and', 'slow', 'cooked', 'fresh', 'herbs', 'garlic', 'olive', 'oil', 'lemon', 'served', 'warm', 'crisp', 'golden',
  'smoked', 'paprika', 'basil', 'roasted', 'peppers', 'sauce', 'rice', 'bread', 'butter', 'chilli', 'ginger', 'lime', 'yoghurt', 'honey',
  'sourdough', 'seasonal', 'greens', 'pickled', 'onion', 'parmesan', 'cream', 'tomatoes', 'spring', 'spinach', 'sprouts', 'spiced'];

/** Small deterministic PRNG (mulberry32). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateMenu(count) {
  const random = prng(count);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const products = [];
  for (let i = 0; i < count; i++) {
    // Style × ingredient × dish is ~25k combinations: a number keeps every name unique.
    const name = `${pick(STYLES)} ${pick(INGREDIENTS)} ${pick(DISHES)} no. ${i + 1}`;
    const tags = new Set();
    const tagCount = 1 + Math.floor(random() * 3);
    while (tags.size < tagCount) tags.add(pick(TAGS));
    const words = [];
    const wordCount = 10 + Math.floor(random() * 10);
    for (let w = 0; w < wordCount; w++) words.push(w % 5 === 2 ? pick(INGREDIENTS) : pick(WORDS));
    products.push({
      name,
      description: `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase()),
      category: pick(CATEGORIES),
      price: 300 + Math.floor(random() * 3000),
      currency: 'USD',
      tags: [...tags],
      available: random() > 0.05,
    });
  }
  return { products };
}

export function writeMenuFile(count, path) {
  const json = JSON.stringify(generateMenu(count));
  writeFileSync(path, json);
  return json.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 100_000);
  const path = process.argv[3] ?? `menu-${count}.json`;
  const bytes = writeMenuFile(count, path);
  console.log(`${path}: ${count} dishes, ${(bytes / 1e6).toFixed(1)} MB`);
}
