// Dividha for the web table (docs/web.md): its five suits' faces, the wild cards and its seat view on the shared table.

import { suitedFace } from "/web/decks/faces.js";
import { capitalized, cardNames, count, perSeat } from "/web/words.js";

const THE_THREE = { MIN: "Min", RAL: "Ral", SAN: "San" };

export const deck = {
  suits: {
    H: { name: "Humans", colour: "#c62828" },
    D: { name: "Demi-Humans", colour: "#e0620d" },
    B: { name: "Beasts", colour: "#2e7d32" },
    V: { name: "Heaven", colour: "#1565c0" },
    L: { name: "Hell", colour: "#222831" },
  },
  face(code) {
    const card = code.match(/^([AKQJ765432])([HDBVL])$/) ?? code.match(/^(6)(V)[123]$/);
    if (card) return suitedFace(deck, card[2], card[1]);
    if (THE_THREE[code]) return { rank: "6", suits: ["L"], name: `6 of Hell (${THE_THREE[code]})` };
    if (code === "GOD") return { rank: "God", suits: ["V"], name: "God (wild, Heaven)" };
    if (code === "SATAN") return { rank: "Satan", suits: ["L"], name: "Satan (wild, Hell)" };
    return null;
  },
};

const SPLITS = { WIN: "all on Win", EVEN: "half on Win, half on Lose", LOSE: "all on Lose" };
const RAISES = { min: "the minimum", half_pot: "half the pot", pot: "the pot", all_in: "all in" };
const SLOTS = ["P1", "P2", "U1", "U2", "P3", "P4"];
const PHASES = { trading: "Trading: trade in up to two of your cards for new ones", over: "The hand is over" };

/** The action in words: "Raise 4 (the minimum), all on Win", "Trade in 5 of Demi-Humans"; another seat's public
 * label ("raise 4", "trade P1 P2") says what every seat sees. */
export function describe(action) {
  // What only the actor knows is in the label's parentheses: "raise 4 (min win)", "call 2 (lose)".
  const secret = action.label.match(/\((.*)\)/)?.[1].split(" ") ?? [];
  const splitWord = action.split ?? secret.find((word) => SPLITS[word.toUpperCase()])?.toUpperCase();
  const split = splitWord ? `, ${SPLITS[splitWord]}` : "";
  if (action.kind === "call" || action.kind === "raise") {
    const chips = action.label.split(" ")[1];
    const option = secret.find((word) => RAISES[word]);
    const how = action.kind === "raise" && option ? ` (${RAISES[option]})` : "";
    return `${capitalized(action.kind)} ${chips}${how}${split}`;
  }
  if (action.kind === "trade") {
    const paying = action.chips ? `, paying ${action.chips}${split}` : "";
    if (action.cards.length) return `Trade in ${cardNames(deck, action.cards)}${paying}`;
    const slots = action.label.match(/\b[PU]\d\b/g) ?? [];
    return slots.length ? `Trade in ${count(slots.length, "card")}` : "Keep every card (trade nothing)";
  }
  return capitalized(action.kind);
}

/** What a seat shows: at the showdown its hand; else its face-up pair where dealt, the rest face down. */
function seatCards(view, seat) {
  const shown = view.phase === "over" ? view.showdown?.shown[seat] : null;
  if (shown) return shown.cards;
  return view.dealt[seat].map((slot) => (slot === "U1" ? view.public[seat][0] : slot === "U2" ? view.public[seat][1] : null));
}

/** One Dividha seat view on the shared table: the pot, the stock, your Win and Lose tablet; each seat's face-up pair. */
export function render(view) {
  const toCall = view.betting ? view.betting.current_bet - view.betting.contributions[view.seat] : 0;
  const forfeit = view.forfeit ? ` · ${view.forfeit} forfeit` : "";
  const middle = [
    { label: "Pot", text: `${view.pot} chips${forfeit}${toCall > 0 ? ` · ${toCall} to call` : ""}` },
    { label: "Your tablet", text: `Win ${view.tablet.win} · Lose ${view.tablet.lose}` },
    { label: "Stock", cards: [null], text: `${view.stock_size} cards` },
  ];
  const round = view.round === 0 ? "the Demon's Wager" : `betting round ${view.round}`;
  return {
    dealer: view.dealer,
    seats: view.stacks.map((stack, seat) => ({
      score: `${stack} chips · ${view.paid[seat]} in the pot`,
      role: [
        !view.in_match[seat] ? "out" : view.folded[seat] ? "folded" : view.phase === "over" && view.showdown?.shown[seat]?.name,
        view.trades[seat] && (view.trades[seat].length ? `traded ${count(view.trades[seat].length, "card")}` : "traded none"),
      ].filter(Boolean).join(" · "),
      cards: seat === view.seat && view.phase !== "over" ? [] : seatCards(view, seat),
    })),
    middle,
    note: view.phase === "betting" ? capitalized(round) : PHASES[view.phase],
    hand: SLOTS.map((slot) => view.cards[slot]).filter(Boolean),
  };
}

/** A hand's result by seat: the hand shown and its name, the Win and Lose stakes, what it paid and received. */
export function result(event) {
  return {
    columns: {
      hand: perSeat(event, event.shown).map((shown) => shown?.cards ?? null),
      "hand name": perSeat(event, event.shown).map((shown) => shown?.name ?? null),
      Win: perSeat(event, event.win),
      Lose: perSeat(event, event.lose),
      paid: perSeat(event, event.paid),
      received: perSeat(event, event.received),
    },
  };
}
