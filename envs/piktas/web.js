// Piktas for the web table (docs/web.md): its deck's faces and its seat view on the shared table.

import { suitedFace } from "/web/decks/faces.js";

const TRUMP_NAMES = {
  TOW1: "Tree", TOW2: "Grain", TOK1: "Eagle", TOK2: "Bee", TOU1: "Lizard", TOU2: "Serpent", TOM1: "Rabbit", TOM2: "Coyote",
  TWK1: "Goose", TWK2: "Toad", TWU1: "Reeds", TWU2: "Man", TWM1: "Lily", TWM2: "Woman", TKU1: "Raven", TKU2: "Sagebrush",
  TKM1: "Bat", TKM2: "Beetle", TUM1: "Jackal", TUM2: "Mountain lion",
};

export const deck = {
  suits: {
    O: { name: "Stone", colour: "#6d4c41" },
    W: { name: "Water", colour: "#1565c0" },
    K: { name: "Sky", colour: "#00838f" },
    U: { name: "Sun", colour: "#d68a00" },
    M: { name: "Moon", colour: "#6a1b9a" },
  },
  face(code) {
    const pip = code.match(/^([OWKUM])(10|[1-9])$/);
    if (pip) return suitedFace(deck, pip[1], pip[2]);
    if (TRUMP_NAMES[code]) return { rank: "T", suits: [code[1], code[2]], name: `${TRUMP_NAMES[code]} (trump)` };
    if (code === "V1" || code === "V2") return { rank: "Void", suits: [], name: "a void" };
    return null;
  },
};

function cardName(code) {
  return deck.face(code)?.name ?? code;
}

const BETS = { stay: "Stay", match: "Match the bet", raise: "Raise", fold: "Fold" };

/** The action in words: "Swap 7 of Stone for Sagebrush (trump)", "Cover 5 of Water with a void". */
export function describe(action) {
  const [given, taken] = action.cards;
  if (action.kind === "swap") return `Swap ${cardName(given)} for ${cardName(taken)}`;
  if (action.kind === "void") return `Cover ${cardName(taken)} with a void`;
  if (action.kind === "pass") return "Pass";
  return BETS[action.kind] ?? action.label;
}

/** The cards a seat shows: its hand at the showdown, else the field cards it took (face up) and the rest face down. */
function seatCards(view, seat) {
  const shown = view.phase === "over" ? view.showdowns.at(-1)?.hands[seat] : null;
  if (shown) return shown;
  const held = view.held_from_field[seat];
  return [...held, ...Array(Math.max(view.hand_sizes[seat] - held.length, 0)).fill(null)];
}

/** One Piktas seat view on the shared table: the field's positions, the deck, the pot; each seat's cards. */
export function render(view) {
  const gambling = view.settings.mode === "gambling";
  const phase = view.phase === "exchange" ? `exchange cycle ${view.cycle} of 3` : view.phase === "betting" ? "betting" : "showdown";
  const middle = [
    { label: `Field · ${phase}`, cards: view.field.map((stack) => (stack.length === 1 ? stack[0] : stack)) },
    { label: "Deck", cards: [null], text: `${view.deck_size} cards` },
  ];
  if (gambling) {
    const bet = view.betting ? ` · bet to match ${view.betting.current_bet}` : "";
    middle.push({ label: "Pot", text: `${view.pot} chips${bet}` });
  }
  const [total, unit] = view.evaluation;
  return {
    dealer: view.dealer,
    seats: view.hand_sizes.map((_, seat) => ({
      score: gambling ? `${view.chips[seat]} chips` : `${view.scores[seat]} points`,
      role: !view.in_round[seat] ? "out" : view.betting?.folded[seat] ? "folded" : "",
      cards: seat === view.seat ? view.held_from_field[seat] : seatCards(view, seat),
      label: seat === view.seat ? "taken from the field" : "",
    })),
    middle,
    note: `Your hand with the field scores ${total} (best unit ${unit}).`,
    hand: view.hand,
  };
}
