// Drawing seat views, results and events from their JSON, for any game.

import { cardBack, cardFace } from "./cards.js";

// Card codes look like CiAr (rank and suit, two letters each) or O10, TUM1, S8 (suit letters, then a number).
const CARD_CODE = /^(?:[A-Z][a-z]){2}$|^[A-Z]{1,4}\d{1,2}$/;

/** Card codes met in legal actions' `cards`: shown as cards even when they do not look like one. */
export const knownCards = new Set();

export function isCard(value) {
  return typeof value === "string" && (knownCards.has(value) || CARD_CODE.test(value));
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
export function valueElement(value, choose) {
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

/** One hand-history event as a line: the seat, the kind, then its other fields. */
export function eventElement(event) {
  const line = element("li", `event event-${event.kind}`);
  const who = event.seat === null || event.seat === undefined ? "table" : `seat ${event.seat}`;
  line.append(element("strong", "", `${who} · ${event.kind}`));
  const details = Object.fromEntries(Object.entries(event).filter(([key]) => !["hand", "kind", "seat"].includes(key)));
  if (Object.keys(details).length) line.append(" ", fieldsElement(details, []));
  return line;
}

/** Each seat's reward, e.g. "seat 0: +0.67 · seat 1: −0.33". */
export function rewardsText(rewards) {
  return rewards.map((reward, seat) => `seat ${seat}: ${reward >= 0 ? "+" : ""}${reward.toFixed(2)}`).join(" · ");
}
