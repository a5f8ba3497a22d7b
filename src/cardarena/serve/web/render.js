// Drawing seat views, results and events from their JSON, for any game.

import { cardBack, cardFace } from "./cards.js";

// Card codes look like CiAr (rank and suit, two letters each) or O10, TUM1, S8 (suit letters, then a number).
const CARD_CODE = /^(?:[A-Z][a-z]){2}$|^[A-Z]{1,4}\d{1,2}$/;

/** Card codes met in legal actions' `cards`: shown as cards even when they do not look like one. */
export const knownCards = new Set();

function isCard(value) {
  return typeof value === "string" && (knownCards.has(value) || (deck ? deck.face(value) !== null : CARD_CODE.test(value)));
}

// The deck of the game on the page (from its renderer), whose faces cards are drawn with; null draws plain faces.
let deck = null;

export function useDeck(gameDeck) {
  deck = gameDeck ?? null;
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A card drawn as its face (a null code face down); `choose` makes it a toggle button. */
export function cardElement(code, choose) {
  const card = element(choose ? "button" : "span", "card");
  card.append(code === null ? cardBack() : cardFace(code, deck));
  if (code === null) return card;
  card.dataset.card = code;
  if (choose) {
    card.type = "button";
    card.setAttribute("aria-pressed", String(choose.selected.has(code)));
    card.addEventListener("click", () => choose.toggle(code));
  }
  return card;
}

/** Any JSON value of a view: cards as faces, lists as rows, objects as labelled fields. */
function valueElement(value, choose) {
  if (value === null || value === undefined) return element("span", "none", "—");
  if (isCard(value)) return cardElement(value, choose && choose.cards.has(value) ? choose : null);
  if (Array.isArray(value) && value.some((item) => item !== null && typeof item === "object" && !Array.isArray(item))) {
    const items = element("ol", "items");
    for (const item of value) {
      const entry = element("li");
      entry.append(valueElement(item, choose));
      items.append(entry);
    }
    return items;
  }
  if (Array.isArray(value)) {
    const row = element("span", "row");
    if (value.length === 0) row.append(element("span", "none", "none"));
    for (const item of value) row.append(valueElement(item, choose));
    return row;
  }
  if (typeof value === "object") return fieldsElement(value, [], choose);
  if (typeof value === "number" && !Number.isInteger(value)) return element("span", "number", value.toFixed(2));
  return element("span", "text", String(value));
}

/** The object's fields, but `skip`, as a definition list. */
export function fieldsElement(object, skip, choose) {
  const list = element("dl", "fields");
  for (const [key, value] of Object.entries(object)) {
    if (skip.includes(key)) continue;
    const entry = element("div");
    entry.append(element("dt", "", key.replaceAll("_", " ")), element("dd"));
    entry.lastChild.append(valueElement(value, choose));
    list.append(entry);
  }
  return list;
}

/** A seat's name at a table: "You" for the page's own seat, else its bot's name and number. */
export function seatNamer(seats, you) {
  return (number) => {
    if (number === you) return "You";
    const bot = seats?.[number]?.bot ?? seats?.[number];
    return bot ? `${bot} (seat ${number})` : `seat ${number}`;
  };
}

/** An event's move as a legal action's shape { label, kind, cards }, its cards read from its label with the deck. */
function eventAction(event) {
  const label = event.private?.label ?? event.label;
  const words = label.split(/[ :]/);
  return { label, kind: words[0], cards: words.filter((word) => deck?.face(word)) };
}

/** What a seat did in a history event, in words and cards: { text, cards }; null for an event of no seat. */
export function eventMove(event, describe) {
  if (typeof event.seat !== "number") return null;
  if (event.label) {
    const action = eventAction(event);
    return { text: describe?.(action) ?? action.label, cards: action.cards };
  }
  const cards = event.private?.cards ?? event.cards ?? [];
  const count = event.count === undefined ? "" : ` ${event.count}`;
  return { text: `${event.kind.replaceAll("_", " ")}${count}`, cards: Array.isArray(cards) ? cards : [] };
}

/** One hand-history event as a line: who, what, and its cards. */
export function eventElement(event, name, describe) {
  const line = element("li", `event event-${event.kind}`);
  const move = eventMove(event, describe);
  if (move) {
    line.append(element("strong", "", `${name(event.seat)}: `), move.text);
    if (move.cards.length) line.append(" ", valueElement(move.cards));
    return line;
  }
  if (event.kind === "result" || event.kind === "start") {
    if (event.kind === "start") line.classList.add("hand-start");
    line.append(element("strong", "", `Hand ${event.hand + 1} ${event.kind === "start" ? "begins" : "over"}`));
    return line;
  }
  line.append(element("strong", "", `${event.kind.replaceAll("_", " ")} `));
  const details = Object.fromEntries(Object.entries(event).filter(([key]) => !["hand", "kind", "seat"].includes(key)));
  if (Object.keys(details).length) line.append(fieldsElement(details, []));
  return line;
}

/** A signed reward: "+0.67", "−0.33". */
function signed(number) {
  return `${number >= 0 ? "+" : "−"}${Math.abs(number).toFixed(2).replace(/\.00$/, "")}`;
}

const EVENT_KEYS = ["hand", "kind", "seat", "rewards"];

/** A per-seat value a result table shows: a number, a word, a list of cards (or an object holding its `cards`). */
function cellValue(value) {
  if (value === null || ["number", "string", "boolean"].includes(typeof value)) return value;
  if (Array.isArray(value) && value.every(isCard)) return value;
  if (Array.isArray(value?.cards)) return value.cards;
  return undefined;
}

/** The result's columns a table shows by default: each field with one readable value per seat (lists as long as the
 * table, objects keyed by seat number). */
function resultColumns(event) {
  const seats = event.rewards.length;
  const columns = {};
  for (const [key, value] of Object.entries(event)) {
    if (EVENT_KEYS.includes(key) || value === null || typeof value !== "object") continue;
    const keyed = !Array.isArray(value) && Object.keys(value).every((seat) => /^\d+$/.test(seat));
    if (!keyed && !(Array.isArray(value) && value.length === seats)) continue;
    const cells = Array.from({ length: seats }, (_, seat) => cellValue(value[seat] ?? null));
    if (cells.every((cell) => cell !== undefined)) columns[key.replaceAll("_", " ")] = cells;
  }
  return columns;
}

/** A hand's result event as a table: one row per seat by name, the columns (the renderer's `result(event)`, else
 * every readable per-seat field) and the seat's reward; every field of the result folded below. */
export function resultElement(event, names, result) {
  const box = element("div", "result");
  box.append(element("h3", "", `Hand ${event.hand + 1} result`));
  const { columns, text } = result?.(event) ?? { columns: resultColumns(event) };
  const table = element("table", "standings");
  const head = element("tr");
  for (const title of ["seat", ...Object.keys(columns), "reward"]) head.append(element("th", "", title));
  table.append(head);
  event.rewards.forEach((reward, seat) => {
    const row = element("tr");
    row.append(element("td", "", names(seat)));
    for (const cells of Object.values(columns)) {
      const cell = element("td");
      cell.append(valueElement(cells[seat] ?? null));
      row.append(cell);
    }
    row.append(element("td", "reward", signed(reward)));
    table.append(row);
  });
  const scroller = element("div", "standings-box");
  scroller.append(table);
  box.append(scroller);
  if (text) box.append(element("p", "", text));
  const every = element("details");
  every.append(element("summary", "", "every field of the result"), fieldsElement(event, EVENT_KEYS));
  box.append(every);
  return box;
}

/** Each seat's reward by name, e.g. "You +0.67 · yokir/heuristic −0.33". */
export function rewardsText(rewards, names) {
  return rewards.map((reward, seat) => `${names(seat)} ${signed(reward)}`).join(" · ");
}
