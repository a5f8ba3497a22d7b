// Paradigm for the web table (docs/web.md): the Scarp deck's faces and its seat view on the shared table.

import { deck } from "/web/decks/scarp.js";
import { capitalized, cardNames } from "/web/words.js";

export { deck };

function suitName(suit) {
  return deck.suits[suit]?.name ?? suit;
}

/** The action in words: "Own the Light suit", "Put 7 of Light on 5 of Shade", "Cancel with the Error 6, 7, 8 of Shade". */
export function describe(action) {
  const [verb, first] = action.label.split(" ");
  const name = cardNames(deck, action.cards.slice(0, 1));
  if (verb === "suit") return `Own the ${suitName(first)} suit`;
  if (verb === "start") return `Start a pile with ${name}`;
  if (verb === "play") return `Play ${name} from your hand`;
  if (verb === "hand") return `Take ${name} into your hand`;
  if (verb === "new_pile") return `Lay ${name} as a new pile`;
  if (verb === "on_top") return `Lay ${name} on ${cardNames(deck, action.cards.slice(1))}`;
  if (verb === "cancel") return `Cancel with the Error ${cardNames(deck, action.cards)}`;
  return capitalized(action.label);
}

const PHASES = {
  suit: "Each player chooses a suit to own",
  start: "Pick your starting card: a revealed card of your suit",
  process: "The revealed card is yours: take it into your hand, start a pile or lay it on a lower pile top",
  cancel: "A cancel window: an Error (three cards in a row) in hand cancels the move",
  play: "The play round: you may play a card from your hand",
  place: "Place the card played from your hand",
  over: "The game is over",
};

/** One Paradigm seat view on the shared table (every card is public but the deck's order): the revealed card, the piles
 * and who controls each, the deck and the discard pile; every hand face up. */
export function render(view) {
  const middle = [];
  if (view.revealed) middle.push({ label: "Revealed this turn", cards: [view.revealed] });
  if (view.setup_revealed.length) middle.push({ label: "Revealed at the setup", cards: view.setup_revealed });
  view.table.forEach((pile, index) => {
    const owner = view.controllers[index];
    middle.push({ label: owner === null ? "Pile" : `Pile of seat ${owner} (${suitName(view.suits[owner])})`, cards: [pile] });
  });
  middle.push({ label: "Deck", cards: [null], text: `${view.deck_size} cards` });
  middle.push({ label: "Discard pile", cards: view.discard.slice(-3), text: `${view.discard.length} cards${view.discard.length > 3 ? ", the last 3 shown" : ""}` });
  const unowned = view.unowned.length ? ` · unowned: ${view.unowned.map(suitName).join(", ")}` : "";
  return {
    dealer: null,
    seats: view.scores.map((score, seat) => ({
      score: `${score} points`,
      role: [view.suits[seat] && suitName(view.suits[seat]), seat === view.lead && "lead"].filter(Boolean).join(" · "),
      cards: seat === view.seat ? [] : view.hands[seat],
      label: seat === view.seat ? "" : "hand (public)",
    })),
    middle,
    note: `${PHASES[view.phase]}${unowned}`,
    hand: view.hands[view.seat],
  };
}
