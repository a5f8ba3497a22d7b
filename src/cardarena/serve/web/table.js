// The card table every game shares: seats around it, public cards and piles in the middle, the hand at the bottom.
//
// A game's renderer maps its seat view onto a layout (docs/web.md):
// { dealer, seats: [{ score, role, cards, label }], middle: [{ label, cards, text }], hand, note }
// where a card list holds card codes, null for a face-down card and lists for a stack drawn overlapping.

import { element } from "./render.js";

/** The seat's box: its name, roles, score, whose turn, its public cards and its last action (cards never to click). */
function seatBox(seat, layout, table, draw) {
  const drawCard = (code) => draw(code, false);
  const info = layout.seats?.[seat.number] ?? {};
  const box = element("div", "seat");
  box.dataset.seat = seat.number;
  if (seat.number === table.toAct) box.classList.add("to-act");
  if (seat.number === table.you) box.classList.add("you");
  if (seat.number === table.lastSeat) box.classList.add("last-mover");
  const roles = [seat.number === layout.dealer ? "dealer" : "", info.role ?? ""].filter(Boolean);
  box.append(element("strong", "seat-name", seat.name));
  if (roles.length) box.append(element("span", "seat-role", roles.join(" · ")));
  if (info.score) box.append(element("span", "seat-score", info.score));
  if (info.cards?.length) {
    if (info.label) box.append(element("span", "seat-cards-label", info.label));
    const row = cardRow(info.cards, drawCard);
    row.classList.add("seat-cards");
    box.append(row);
  }
  const last = table.lastActions[seat.number];
  const line = element("span", "seat-last", last?.text ?? "");
  if (last?.cards?.length) line.append(" ", cardRow(last.cards, drawCard));
  box.append(line);
  return box;
}

/** Cards in a row: a code face up, null face down, a list as one stack (bottom first, each covering the last);
 * `empty` says that there is none. */
export function cardRow(codes, drawCard, empty = "no card") {
  const row = element("div", "card-row");
  if (!codes.length) row.append(element("span", "none", empty));
  for (const code of codes) {
    if (!Array.isArray(code)) row.append(drawCard(code));
    else {
      const stack = element("div", "stack");
      stack.append(...code.map((card) => drawCard(card)));
      row.append(stack);
    }
  }
  return row;
}

/** A part of the middle: its label, its cards, its text. */
function pileBox(part, drawCard) {
  const pile = element("div", "pile");
  pile.append(element("span", "pile-label", part.label));
  if (part.cards) pile.append(cardRow(part.cards, drawCard));
  if (part.text) pile.append(element("span", "pile-text", part.text));
  return pile;
}

/** The felt: `table` gives { seats: [{ number, name }], you, toAct, lastSeat, lastActions: [{ text, cards }] },
 * `drawCard(code, clickable)` a face (a button where `clickable` is not false and some move plays it); the seat `you`
 * (null for a spectator) sits at the bottom, its hand drawn apart. */
export function tableElement(layout, table, drawCard) {
  const felt = element("div", "felt");
  const seats = element("div", "seats");
  seats.append(...table.seats.filter((seat) => seat.number !== table.you).map((seat) => seatBox(seat, layout, table, drawCard)));
  const middle = element("div", "middle");
  middle.append(...(layout.middle ?? []).map((part) => pileBox(part, drawCard)));
  felt.append(seats, middle);
  if (layout.note) felt.append(element("p", "table-note", layout.note));
  if (table.you !== null) felt.append(seatBox(table.seats[table.you], layout, table, drawCard));
  return felt;
}

/** Your hand: the cards you hold, to click. */
export function handElement(layout, drawCard) {
  const hand = cardRow(layout.hand ?? [], drawCard, "your hand is empty");
  hand.classList.add("hand");
  hand.setAttribute("aria-label", "your hand");
  return hand;
}
