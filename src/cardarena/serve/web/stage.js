// Watching and replaying on the table: the table as a history's events tell it, one event at a time, forward and back.
//
// A spectator and a record have no seat view, so the felt is drawn from the events themselves: each seat's
// name, its dealt cards where the events show them, its last move with its cards and its total so far; the
// middle holds the hand's last moves and the cards laid on the table.

import { cardElement, eventElement, eventMove, resultElement } from "./render.js";
import { tableElement } from "./table.js";

const TABLE_CARDS = 10; // the table cards shown at most: the latest

/** A card list of an event: its own cards (a record's private ones first), a Thumb, a count face down. */
function dealtCards(event) {
  const seen = event.private?.cards ?? event.private?.palm ?? event.cards ?? [];
  const faceUp = [...(event.thumb ?? []), ...seen];
  const hidden = (event.count ?? (typeof event.palm === "number" ? event.palm : 0)) - seen.length;
  return [...faceUp, ...Array(Math.max(hidden, 0)).fill(null)];
}

/** The layout (table.js) of the table after `events[0..shown)`: the hand in progress and the totals of those before. */
function eventLayout(events, shown, seats, describe) {
  const past = events.slice(0, shown);
  const start = past.findLastIndex((event) => event.kind === "start");
  const totals = Array(seats).fill(0);
  for (const event of past) if (event.kind === "result") event.rewards.forEach((reward, seat) => (totals[seat] += reward));
  const layout = {
    dealer: past[start]?.dealer ?? null,
    seats: totals.map((total) => ({ score: `${total >= 0 ? "+" : ""}${Number(total.toFixed(2))} so far`, cards: [], label: "dealt this hand" })),
    middle: [],
  };
  const moves = [];
  const laid = [];
  for (const event of past.slice(start + 1)) {
    if (event.kind === "result") continue;
    if (typeof event.seat === "number" && event.kind === "deal") layout.seats[event.seat].cards.push(...dealtCards(event));
    else if (event.label) moves.push(eventMove(event, describe));
    else if (event.seat === null) laid.push(...(Array.isArray(event.cards) ? event.cards : []), ...(event.card ? [event.card] : []));
  }
  const recent = moves.slice(-seats).filter((move) => move.cards.length);
  if (recent.length) layout.middle.push({ label: "Last moves", cards: recent.flatMap((move) => move.cards) });
  if (laid.length) layout.middle.push({ label: "Laid on the table", cards: laid.slice(-TABLE_CARDS) });
  return layout;
}

/** Draw the events up to `shown` into `places` ({ view, list, result }): the felt, the events (the current one
 * highlighted) and the last hand's result. `names(seat)` names a seat, `renderer` is the game's (docs/web.md). */
export function drawStage(places, events, shown, names, seats, renderer) {
  const describe = renderer?.describe;
  const current = events[shown - 1];
  const lastActions = [];
  let lastSeat = null;
  const start = events.slice(0, shown).findLastIndex((event) => event.kind === "start");
  for (const event of events.slice(start + 1, shown)) {
    if (!event.label) continue;
    lastActions[event.seat] = eventMove(event, describe);
    lastSeat = event.seat;
  }
  const table = {
    seats: Array.from({ length: seats }, (_, number) => ({ number, name: names(number) })),
    you: null,
    toAct: typeof current?.seat === "number" ? current.seat : null,
    lastSeat,
    lastActions,
  };
  places.view.replaceChildren(tableElement(eventLayout(events, shown, seats, describe), table, (code) => cardElement(code)));
  places.list.replaceChildren(...events.slice(0, shown).map((event) => eventElement(event, names, describe)));
  places.list.lastElementChild?.classList.add("current");
  if (places.list.lastElementChild) places.list.scrollTop = places.list.scrollHeight;
  const result = events.slice(0, shown).findLast((event) => event.kind === "result");
  places.result.replaceChildren(...(result ? [resultElement(result, names, renderer?.result)] : []));
}
