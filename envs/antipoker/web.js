// Antipoker for the web table (docs/web.md): the Scarp deck's faces and its seat view on the shared table.

import { deck } from "/web/decks/scarp.js";
import { capitalized, cardNames, count } from "/web/words.js";

export { deck };

/** The action in words: "Mark 7 of Light to discard", "Discard 7 of Light and sun, draw 2", "Keep all six". */
export function describe(action) {
  if (action.kind === "pick") return action.cards.length ? `Mark ${cardNames(deck, action.cards)} to discard` : "Mark a card";
  if (action.kind === "done") {
    if (action.cards.length) return `Discard ${cardNames(deck, action.cards)} and draw ${action.cards.length}`;
    return action.label === "done" ? "Done drawing" : "Keep all six (draw none)";
  }
  return capitalized(action.label);
}

const PHASES = {
  draw: "The draw: mark the cards to discard (click them), then play them; you draw as many",
  betting: "Betting: the highest value still in takes the pot",
  over: "The hand is over",
};

/** One Antipoker seat view on the shared table: the pot, the deck, the cards you marked; hands face down until shown. */
export function render(view) {
  const middle = [{ label: "Pot", text: `${view.pot} chips${view.level ? ` · bet level ${view.level}` : ""}` }];
  if (view.picked.length) middle.push({ label: "Marked to discard", cards: view.picked });
  if (view.discarded.length) middle.push({ label: "Your discards", cards: view.discarded });
  middle.push({ label: "Deck", cards: [null], text: `${view.deck_size} cards` });
  return {
    dealer: view.dealer,
    seats: view.totals.map((total, seat) => ({
      score: `${total >= 0 ? "+" : ""}${total} so far · ${view.contributed[seat]} in the pot`,
      role: [view.folded.includes(seat) && "folded", view.draws[seat] !== null && `drew ${count(view.draws[seat], "card")}`].filter(Boolean).join(" · "),
      cards: view.shown[seat] ?? (seat === view.seat ? [] : Array(6).fill(null)),
    })),
    middle,
    note: PHASES[view.phase],
    hand: view.hand,
  };
}
