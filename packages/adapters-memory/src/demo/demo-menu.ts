/**
 * The demo menu of the in-memory mode (STOREFRONT_MENU_FILE format), made to show features:
 * accented names ("Crème brûlée") for accent-insensitive search (`q=creme`), two unavailable
 * dishes for the 422, option groups (pizza Size and Extra toppings, coffee Milk with one out of
 * stock) for `invalid_options` (DECISIONS "Menu options"). A Berlin store: food 7 %, drinks 19 %,
 * prices including tax (DEMO_TAXES).
 */
import type { MenuDocument } from '@storefront/domain';
import type { MenuDocumentOptionGroup, MenuDocumentProduct, TaxRate, TaxSettings } from '@storefront/domain/adapter-kit';

export type { MenuDocument } from '@storefront/domain';

type Dish = [name: string, price: number, tags: string[], description: string, available?: boolean];

const dishes: Record<string, Dish[]> = {
  Starters: [
    ['Jalapeño poppers', 790, ['spicy', 'vegetarian', 'cheese'], 'Jalapeños stuffed with cream cheese and cheddar, breaded and fried, with a lime crema.'],
    ['Crispy calamari', 1150, ['seafood', 'fried'], 'Lightly dusted squid rings, fried golden, with lemon aioli and a pinch of smoked paprika.'],
    ['Bruschetta al pomodoro', 850, ['vegan', 'tomato'], 'Grilled sourdough rubbed with garlic, topped with ripe tomatoes, basil and olive oil.'],
    ['Chicken satay skewers', 990, ['chicken', 'gluten-free', 'peanut'], 'Turmeric-marinated chicken grilled on skewers, served with a warm peanut sauce.'],
  ],
  Mains: [
    ['Grilled salmon fillet', 2450, ['fish', 'gluten-free', 'healthy'], 'Atlantic salmon with charred lemon, herbed new potatoes and green beans.'],
    ['Steak frites', 2890, ['beef', 'classic'], 'Flat iron steak, cooked to order, with hand-cut fries and béarnaise sauce.'],
    ['Chicken tikka masala', 1890, ['chicken', 'spicy', 'curry'], 'Tandoori chicken in a creamy tomato and fenugreek sauce, with basmati rice and naan.'],
    ['Mushroom risotto', 1790, ['vegetarian', 'gluten-free'], 'Carnaroli rice slowly cooked with porcini and chestnut mushrooms, finished with parmesan.'],
    ['Bœuf bourguignon', 2650, ['beef', 'french', 'slow-cooked'], 'Beef braised for hours in red Burgundy wine with pearl onions, carrots and bacon.', false],
  ],
  Pizza: [
    ['Pizza Margherita', 1290, ['vegetarian', 'classic', 'tomato'], 'San Marzano tomato, fior di latte mozzarella and fresh basil on a wood-fired crust.'],
    ['Pizza Pepperoni', 1490, ['pork', 'classic'], 'Tomato, mozzarella and a generous layer of crisp, curling pepperoni.'],
    ['Pizza Diavola', 1550, ['spicy', 'pork'], 'Spicy salami, Calabrian chilli, tomato and mozzarella, with a drizzle of hot honey.'],
    ['Quattro formaggi', 1590, ['vegetarian', 'cheese'], 'White pizza with mozzarella, gorgonzola, fontina and parmesan.'],
  ],
  Bowls: [
    ['Salmon poke bowl', 1690, ['fish', 'raw', 'healthy'], 'Marinated raw salmon, sushi rice, edamame, avocado, cucumber and sesame.'],
    ['Teriyaki chicken bowl', 1490, ['chicken', 'rice'], 'Glazed chicken thigh over steamed rice with pickled ginger, broccoli and spring onion.'],
    ['Falafel & hummus bowl', 1390, ['vegan', 'healthy'], 'Crisp falafel, hummus, tabbouleh, pickled red onion and tahini dressing.'],
    ['Açaí bowl', 1190, ['vegan', 'fruit', 'breakfast'], 'Frozen açaí blended with banana, topped with granola, berries and coconut flakes.'],
  ],
  Desserts: [
    ['Crème brûlée', 890, ['vegetarian', 'french', 'classic'], 'Vanilla bean custard under a crackling caramelised sugar crust.'],
    ['Tiramisù', 920, ['vegetarian', 'coffee', 'italian'], 'Espresso-soaked savoiardi layered with mascarpone cream and cocoa.'],
    ['Chocolate lava cake', 950, ['vegetarian', 'chocolate'], 'Warm dark chocolate cake with a molten centre and vanilla ice cream.'],
    ['New York cheesecake', 870, ['vegetarian', 'classic'], 'Baked cream cheese cake on a graham cracker base, with a berry compote.', false],
  ],
  Drinks: [
    ['Fresh lemonade', 450, ['cold', 'vegan'], 'Squeezed to order with lemons, cane sugar and a sprig of mint.'],
    ['Iced matcha latte', 550, ['cold', 'tea'], 'Ceremonial-grade matcha over ice with oat milk.'],
    ['Café con leche', 420, ['hot', 'coffee'], 'Double espresso with steamed whole milk, Spanish style.'],
    ['Sparkling water', 300, ['cold', 'vegan'], 'A 500 ml bottle of naturally sparkling mineral water.'],
  ],
};

/** German VAT: the reduced rate on food, the standard rate on drinks (and on what names no rate, e.g. the delivery fee). */
const FOOD_RATE = 700;
const STANDARD_RATE = 1900;
const RATE_OF: Readonly<Record<string, number>> = { Drinks: STANDARD_RATE };

/** The demo's tax settings: Berlin, prices with tax included, the standard rate where a product names none. */
export const DEMO_TAXES: TaxSettings = Object.freeze({ rate: STANDARD_RATE as TaxRate, pricesIncludeTax: true, deliveryFeeRate: STANDARD_RATE as TaxRate });

const topping = (name: string) => ({ name, price_delta: 150, available: true });

/** Every pizza: one size, and up to three extra toppings. */
const PIZZA_GROUPS: readonly MenuDocumentOptionGroup[] = [
  { name: 'Size', min: 1, max: 1, options: [{ name: 'Regular', price_delta: 0, available: true }, { name: 'Large', price_delta: 400, available: true }] },
  { name: 'Extra toppings', min: 0, max: 3, options: [topping('Extra cheese'), topping('Mushrooms'), topping('Olives'), topping('Pepperoni')] },
];

/** Option groups by category (every dish of it) or by dish name. */
const OPTIONS_OF: Readonly<Record<string, readonly MenuDocumentOptionGroup[]>> = {
  Pizza: PIZZA_GROUPS,
  'Café con leche': [
    {
      name: 'Milk',
      min: 0,
      max: 1,
      options: [
        { name: 'Oat milk', price_delta: 50, available: true },
        { name: 'Almond milk', price_delta: 50, available: false },
      ],
    },
  ],
};

function freezeDish(category: string, [name, price, tags, description, available = true]: Dish): MenuDocumentProduct {
  const groups = OPTIONS_OF[name] ?? OPTIONS_OF[category];
  const dish = { name, description, category, price, currency: 'USD', tags: Object.freeze(tags), available, tax_rate: RATE_OF[category] ?? FOOD_RATE };
  return deepFreeze(groups === undefined ? dish : { ...dish, option_groups: groups });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export const demoMenu: MenuDocument = Object.freeze({
  products: Object.freeze(
    Object.entries(dishes).flatMap(([category, list]) => list.map((dish) => freezeDish(category, dish))),
  ),
});
