// The card table every game shares: seats around it, public cards and piles in the middle, the hand at the bottom.
//
// A game's renderer maps its seat view onto a layout { dealer, seats: [{ score, role }], middle: [{ label, cards, text }], hand }.

import { element } from "./render.js";

/** The seat's box: its name, score, roles, whose turn, and its last action. */
function seatBox(seat, layout, table) {
  const info = layout.seats?.[seat.number] ?? {};
  const box = element("div", "seat");
  box.dataset.seat = seat.number;
  if (seat.number === table.toAct) box.classList.add("to-act");
  if (seat.number === table.you) box.classList.add("you");
  const roles = [seat.number === layout.dealer ? "dealer" : "", info.role ?? ""].filter(Boolean);
  box.append(element("strong", "seat-name", seat.name));
  if (roles.length) box.append(element("span", "seat-role", roles.join(" · ")));
  if (info.score) box.append(element("span", "seat-score", info.score));
  box.append(element("span", "seat-last", table.lastActions[seat.number] ?? ""));
  return box;
}

function cardRow(codes, drawCard) {
  const row = element("div", "card-row");
  if (!codes.length) row.append(element("span", "none", "no card"));
  row.append(...codes.map((code) => drawCard(code)));
  return row;
}

/** The whole table: `table` gives { seats: [{ number, name }], you, toAct, lastActions }, `drawCard(code)` a face. */
export function tableElement(layout, table, drawCard) {
  const felt = element("div", "felt");
  const seats = element("div", "seats");
  seats.append(...table.seats.filter((seat) => seat.number !== table.you).map((seat) => seatBox(seat, layout, table)));
  const middle = element("div", "middle");
  for (const part of layout.middle ?? []) {
    const pile = element("div", "pile");
    pile.append(element("span", "pile-label", part.label));
    if (part.cards) pile.append(cardRow(part.cards, drawCard));
    if (part.text) pile.append(element("span", "pile-text", part.text));
    middle.append(pile);
  }
  const mine = element("div", "mine");
  mine.append(seatBox(table.seats[table.you], layout, table));
  const hand = cardRow(layout.hand ?? [], drawCard);
  hand.classList.add("hand");
  mine.append(hand);
  felt.append(seats, middle, mine);
  return felt;
}
