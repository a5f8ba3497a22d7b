// Playing one client seat: its view, its legal actions as numbered buttons, cards chosen by clicking.

import { ApiError, api as request, withQuery } from "./api.js";
import { cardElement, element, eventElement, fieldsElement, knownCards, rewardsText, useDeck } from "./render.js";
import { tableElement } from "./table.js";
import { guarded, say } from "./page.js";

const POLL_MS = 600;
const NUMBER_WAIT_MS = 700;
// Shown in sections of their own, or not at all (the token stays with the page).
const SHOWN_APART = ["game", "seat", "settings", "legal_actions", "last_hand"];

const seat = { table: null, number: null, token: null, answer: null, selection: new Set(), typed: "", timer: null, numberTimer: null, renderer: null, sending: false, lastActions: [] };

/** The game's own renderer module (`deck`, `render(view)`, `describe(action)`: docs/web.md), or null when it ships none. */
async function loadRenderer(game) {
  if (!game.renderer) return null;
  try {
    return await import(game.renderer);
  } catch (error) {
    throw new Error(`${game.env_id}'s renderer ${game.renderer} did not load (${error.message})`);
  }
}

/** Sit at a table of `game` just created: the one client seat of `table` is this page's. */
export async function startPlaying(table, game) {
  const mine = table.seats.find((entry) => entry.token !== null);
  const renderer = await loadRenderer(game);
  useDeck(renderer?.deck);
  Object.assign(seat, { table, number: mine.seat, token: mine.token, answer: null, selection: new Set(), renderer, sending: false, lastActions: [] });
  document.getElementById("play-title").textContent = `${table.game} · table ${table.table_id.slice(0, 8)} · you are seat ${mine.seat}`;
  await refresh();
}

async function refresh() {
  clearTimeout(seat.timer);
  const table = seat.table;
  const answer = await request("GET", withQuery(`/v1/tables/${table.table_id}`, { seat: seat.number, token: seat.token }));
  if (table === seat.table) await show(answer);
}

async function show(answer) {
  const table = seat.table;
  const history = await request("GET", withQuery(`/v1/tables/${table.table_id}/history`, { token: seat.token }));
  if (table !== seat.table) return;
  seat.answer = answer;
  for (const action of answer.view.legal_actions) for (const card of action.cards) knownCards.add(card);
  seat.lastActions = lastActions(history.events);
  drawStatus(answer);
  drawView(answer.view);
  drawActions();
  drawHistory(history.events);
  if (!answer.your_turn && !answer.finished) seat.timer = setTimeout(() => guarded(refresh), POLL_MS);
}

function seatName(number) {
  if (number === seat.number) return `seat ${number} (you)`;
  return `seat ${number} (${seat.table.seats[number].bot})`;
}

function drawStatus(answer) {
  let text;
  if (answer.finished) text = `The match is over. Rewards: ${rewardsText(answer.rewards)}.`;
  else if (answer.your_turn) text = `Your turn${answer.seconds_left === null ? "" : ` (${Math.round(answer.seconds_left)} s left)`}: choose an action.`;
  else text = `Waiting for ${seatName(answer.to_act)}…`;
  document.getElementById("play-status").textContent = text;
}

/** Each seat's last public move in the history, by its label: "play CiAr", "raise". */
function lastActions(events) {
  const last = [];
  for (const event of events) if (typeof event.seat === "number" && event.label) last[event.seat] = event.label;
  return last;
}

function tableSeats() {
  return seat.table.seats.map((entry) => ({ number: entry.seat, name: entry.seat === seat.number ? "You" : entry.bot }));
}

function drawView(view) {
  const choice = { cards: playableCards(), selected: seat.selection, toggle: toggleCard };
  const drawCard = (code) => cardElement(code, choice.cards.has(code) ? choice : null);
  const fields = fieldsElement(view, SHOWN_APART, choice);
  const settings = folded("settings", fieldsElement(view.settings, []));
  const parts = [fields, settings];
  if (seat.renderer?.render) {
    const table = { seats: tableSeats(), you: seat.number, toAct: seat.answer.to_act, lastActions: seat.lastActions };
    parts.splice(0, 1, tableElement(seat.renderer.render(view), table, drawCard), folded("details: every field of the view", fieldsElement(view, SHOWN_APART)));
  }
  document.getElementById("play-view").replaceChildren(...parts);
  drawResult(view);
}

function folded(summary, content) {
  const details = element("details");
  details.append(element("summary", "", summary), content);
  return details;
}

function drawResult(view) {
  const result = document.getElementById("play-result");
  result.replaceChildren(view.last_hand ? fieldsElement(view.last_hand, []) : element("p", "", "No hand has ended yet."));
  if (view.last_hand) result.closest("details").open = true;
}

function playableCards() {
  return new Set(seat.answer.view.legal_actions.flatMap((action) => action.cards));
}

function toggleCard(card) {
  if (seat.selection.has(card)) seat.selection.delete(card);
  else seat.selection.add(card);
  drawView(seat.answer.view);
  drawActions();
}

/** The legal actions, numbered from 1; with cards selected, only those that take all of them. */
function drawActions() {
  const box = document.getElementById("play-actions");
  box.replaceChildren();
  if (!seat.answer.your_turn) return;
  seat.answer.view.legal_actions.forEach((action, index) => {
    const button = element("button", "action", `${index + 1}. ${seat.renderer?.describe?.(action) ?? action.label}`);
    button.type = "button";
    button.dataset.action = action.id;
    button.dataset.label = action.label;
    button.hidden = ![...seat.selection].every((card) => action.cards.includes(card));
    button.addEventListener("click", () => guarded(() => playAction(action)));
    box.append(button);
  });
  if (seat.selection.size) box.append(selectionControls());
}

function selectionControls() {
  const controls = element("div", "selection");
  controls.append(element("span", "", "Selected: "));
  for (const card of seat.selection) controls.append(cardElement(card));
  const submit = element("button", "submit", "Play the selected cards (Enter)");
  submit.type = "button";
  submit.id = "play-selection";
  submit.addEventListener("click", () => guarded(playSelection));
  const clear = element("button", "", "Clear");
  clear.type = "button";
  clear.addEventListener("click", clearSelection);
  controls.append(submit, clear);
  return controls;
}

function clearSelection() {
  seat.selection.clear();
  drawView(seat.answer.view);
  drawActions();
}

/** Every control of the seat off while a move is on its way, so that a double click plays once. */
function setSending(sending) {
  seat.sending = sending;
  for (const control of document.querySelectorAll("#play-actions button, #play-view button.card")) control.disabled = sending;
}

/** Play `action` on the view it was chosen on (its move number echoed): a view the table has moved past is read again. */
async function playAction(action) {
  if (seat.sending) return;
  const table = seat.table;
  const body = { seat: seat.number, token: seat.token, action: action.id, move: seat.answer.move };
  setSending(true);
  let answer;
  let notice = "";
  try {
    answer = await request("POST", `/v1/tables/${table.table_id}/actions`, body);
  } catch (error) {
    if (!(error instanceof ApiError && error.message.startsWith("stale_view"))) throw error;
    notice = "The table moved on before your move arrived: here is where it stands now; choose again.";
    answer = await request("GET", withQuery(`/v1/tables/${table.table_id}`, { seat: seat.number, token: seat.token }));
  } finally {
    if (table === seat.table) setSending(false);
  }
  say(notice, true);
  seat.selection.clear();
  if (table === seat.table) await show(answer);
}

function sameCards(action, cards) {
  return action.cards.length === cards.size && action.cards.every((card) => cards.has(card));
}

/** The move the selected cards make: the one action that plays exactly them, or else a `pick` of
 * each (still unpicked) selected card and then `done` (the PICK … DONE draws). */
async function playSelection() {
  const wanted = new Set(seat.selection);
  const picked = new Set();
  for (;;) {
    const legal = seat.answer.your_turn ? seat.answer.view.legal_actions : [];
    const exact = legal.filter((action) => action.kind !== "pick" && sameCards(action, wanted));
    const pick = legal.find((action) => action.kind === "pick" && wanted.has(action.cards[0]) && !picked.has(action.cards[0]));
    const done = legal.filter((action) => action.kind === "done");
    let move = exact.length === 1 ? exact[0] : pick;
    if (!move && picked.size === wanted.size && done.length === 1) move = done[0];
    if (!move) throw new Error(`no single legal action plays exactly ${[...wanted].join(" ")}: choose one of the buttons`);
    if (move === pick) picked.add(pick.cards[0]);
    await playAction(move);
    if (move !== pick) return;
  }
}

function drawHistory(events) {
  const lastResult = events.findLastIndex((event) => event.kind === "result");
  const hand = events.slice(lastResult + 1);
  const list = document.getElementById("play-history");
  list.replaceChildren(...(hand.length ? hand : events.slice(-1)).map(eventElement));
  list.scrollTop = list.scrollHeight;
}

function numberTyped(key) {
  clearTimeout(seat.numberTimer);
  seat.typed += key;
  const legal = seat.answer.view.legal_actions;
  const chosen = Number(seat.typed);
  const complete = chosen * 10 > legal.length;
  const play = () => {
    seat.typed = "";
    if (chosen >= 1 && chosen <= legal.length) guarded(() => playAction(legal[chosen - 1]));
    else say(`there is no action ${chosen}: choose 1 to ${legal.length}`);
  };
  if (complete) play();
  else seat.numberTimer = setTimeout(play, NUMBER_WAIT_MS);
}

function onKey(event) {
  if (document.getElementById("play").hidden || !seat.answer?.your_turn || seat.sending) return;
  if (event.target.closest("input, textarea, select")) return;
  if (/^[0-9]$/.test(event.key)) numberTyped(event.key);
  else if (event.key === "Enter" && seat.selection.size) {
    event.preventDefault();
    guarded(playSelection);
  }
  else if (event.key === "Escape") clearSelection();
}

document.addEventListener("keydown", onKey);
