// Tilt for the web table (docs/web.md): the Voyage deck's faces, the Void deck's Hazards and its seat view on the shared table.

import { suitedFace } from "/web/decks/faces.js";
import { capitalized, cardSet, perSeat } from "/web/words.js";

const COMMANDS = { K9: "Engineer", K10: "Scientist", K11: "Quartermaster", K12: "Captain" };
const HAZARDS = {
  FINE: "The Fine Print", LEAK: "Leak in the Fuel Line", MUTI: "Mutinous Days", DIST: "Always Answer Distress Signals",
  STSH: "Captain's Reserve Stash", ARMR: "Well-Stocked Armory", BINY: "Binary System", HULL: "Hull Breach",
  GRAV: "Inexorable Gravity", TEAM: "The Value of Teamwork", TRST: "Trust Your People", GALY: "Fine Galley",
  HAUL: "Counting the Haul", CHKN: "Game of Chicken", JUMP: "Wild Jump", PAYC: "Corporate Paycheck",
  TRIK: "Always Have Another Trick", EXPD: "Expendable Ranks", TAXS: "Import Taxes", VOTE: "Vote of No Confidence",
  SABO: "Saboteur in the Ranks", SHAR: "Dividing the Shares", ENGB: "Engine Breach",
};

export const deck = {
  suits: {
    C: { name: "Crew", colour: "#c62828" },
    P: { name: "Planets", colour: "#2e7d32" },
    S: { name: "Stars", colour: "#1565c0" },
    H: { name: "Ships", colour: "#37474f" },
    V: { name: "Void", colour: "#4a148c" },
  },
  face(code) {
    const number = code.match(/^([CPSH])([1-8])$/);
    if (number) return suitedFace(deck, number[1], number[2]);
    if (COMMANDS[code]) return { rank: code.slice(1), suits: ["C", "P", "S", "H"], name: `the ${COMMANDS[code]}` };
    if (HAZARDS[code]) return { rank: code, suits: ["V"], name: `Hazard: ${HAZARDS[code]}` };
    return null;
  },
};

const CARD_MOVES = { discard: "discard", pass: "pass", keep: "keep" };

/** The action in words: "Raise", "Discard 2 of Crew and 5 of Stars", "Keep the Captain". */
export function describe(action) {
  if (CARD_MOVES[action.kind]) return cardSet(CARD_MOVES[action.kind], action, deck);
  return capitalized(action.label);
}

const PHASES = {
  exchange: "Exchange: discard up to three Palm cards and draw as many",
  sabotage: "Saboteur exchange: lay up to three Palm cards on the Saboteur pile",
  share_pass: "Shares: pass up to three Palm cards to the next seat",
  share_discard: "Shares: discard down to three Palm cards",
  haul: "Counting the Haul: keep one of your cards",
  over: "The hand is over",
};

/** A pile told by its size or, once turned up, by its cards. */
function faceDown(cards) {
  return Array.isArray(cards) ? cards : Array(cards).fill(null);
}

/** One Tilt seat view on the shared table: the pot, the Hazards and table cards, the stock; Thumbs face up, Palms face down. */
export function render(view) {
  const pot = view.betting?.pot ?? view.contributions.reduce((sum, chips) => sum + chips, 0);
  const toCall = view.betting ? Math.max(...view.contributions) - view.contributions[view.seat] : 0;
  const middle = [{ label: "Pot", text: `${pot} chips${toCall > 0 ? ` · ${toCall} to call` : ""}` }];
  if (view.hazards.length) middle.push({ label: "Hazard", cards: view.hazards, text: view.hazards.map((code) => HAZARDS[code]).join(" · ") });
  const extra = { "Fine Print": faceDown(view.fine_print), Chicken: faceDown(view.chicken), Tariffs: view.tariffs, "Haul grid": view.grid };
  for (const [label, cards] of Object.entries(extra)) if (cards.length) middle.push({ label, cards });
  middle.push({ label: "Stock", cards: [null], text: `${view.stock} cards · ${view.discard_pile} discarded · ${view.void_deck} Void` });
  return {
    dealer: view.dealer,
    seats: view.stacks.map((stack, seat) => ({
      score: `${stack} chips${view.contributions[seat] ? ` · ${view.contributions[seat]} in the pot` : ""}`,
      role: !view.in_hand[seat] ? "out" : view.folded[seat] ? "folded" : "",
      cards: view.shown[seat] ?? (seat === view.seat ? view.thumbs[seat] : [...view.thumbs[seat], ...Array(view.palm_sizes[seat]).fill(null)]),
      label: seat === view.seat && !view.shown[seat] ? "your Thumb, face up" : "",
    })),
    middle,
    note: view.phase === "bet" ? `Betting round ${view.betting_round}` : PHASES[view.phase],
    hand: view.palm,
  };
}

/** A hand's result by seat: the hand shown, the chips paid out to it and its stack after. */
export function result(event) {
  const table = [event.fine_print && `Fine Print: ${event.fine_print.join(" ")}`, event.hazards.length && `Hazards: ${event.hazards.map((code) => HAZARDS[code]).join(", ")}`];
  return {
    columns: { hand: perSeat(event, event.hands), "paid out": perSeat(event, event.payouts), stack: perSeat(event, event.stacks) },
    text: table.filter(Boolean).join(" · "),
  };
}
