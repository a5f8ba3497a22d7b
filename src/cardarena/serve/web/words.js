// What a game's renderer builds its words and results from (docs/web.md): card names from its deck, counts, seats.

/** The cards' names from `deck`, joined: "7 of Stone and Sagebrush (trump)"; a code the deck does not know stays a code. */
export function cardNames(deck, codes) {
  const names = codes.map((code) => deck.face(code)?.name ?? code);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

/** "1 card", "3 cards". */
export function count(number, noun) {
  return `${number} ${noun}${number === 1 ? "" : "s"}`;
}

/** A label's first letter in capitals: "check" → "Check". */
export function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The move of a card-set action in words: its cards by name, or (a public label, "discard 2") how many it names. */
export function cardSet(verb, action, deck) {
  if (action.cards.length) return `${capitalized(verb)} ${cardNames(deck, action.cards)}`;
  const number = action.label.match(/ (\d+)$/);
  if (number) return `${capitalized(verb)} ${count(Number(number[1]), "card")}`;
  return `${capitalized(verb)} ${action.label.endsWith("nothing") ? "nothing" : "a card"}`;
}

/** A result field's value for each seat of the result `event` (a list by seat or an object keyed by seat), null where none. */
export function perSeat(event, values) {
  return event.rewards.map((_, seat) => values?.[seat] ?? null);
}
