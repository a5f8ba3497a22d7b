// Playing one client seat: the table from its view, the bots' moves played out one at a time, its legal
// actions as numbered buttons, cards chosen by clicking.

import { ApiError, api as request, withQuery } from "./api.js";
import { cardElement, element, eventElement, eventMove, fieldsElement, knownCards, resultElement, rewardsText, seatNamer, useDeck } from "./render.js";
import { cardRow, handElement, tableElement } from "./table.js";
import { guarded, loadRenderer, say } from "./page.js";

const POLL_MS = 600;
const NUMBER_WAIT_MS = 700;
const FOLD_OVER = 8; // more legal actions than this: the card moves show once a card is clicked
// Shown in sections of their own, or not at all (the token stays with the page).
const SHOWN_APART = ["game", "seat", "settings", "legal_actions", "last_hand"];

const seat = {
  table: null, number: null, token: null, renderer: null, names: null,
  answer: null, // the server's latest answer
  drawn: null, // the answer whose table is drawn: behind `answer` while the bots' moves play out
  seen: 0, // history events read so far
  queue: [], // events read and not yet played out
  playTimer: null,
  lastActions: [], lastSeat: null,
  selection: new Set(), typed: "", timer: null, numberTimer: null, sending: false,
};

/** Sit at a table of `game` just created: the one client seat of `table` is this page's. */
export async function startPlaying(table, game) {
  const mine = table.seats.find((entry) => entry.token !== null);
  const renderer = await loadRenderer(game);
  useDeck(renderer?.deck);
  clearTimeout(seat.playTimer);
  Object.assign(seat, {
    table, number: mine.seat, token: mine.token, renderer, names: seatNamer(table.seats, mine.seat),
    answer: null, drawn: null, seen: 0, queue: [], playTimer: null, lastActions: [], lastSeat: null,
    selection: new Set(), sending: false,
  });
  document.getElementById("play-title").textContent = `${table.game} · table ${table.table_id.slice(0, 8)} · you are seat ${mine.seat}`;
  document.getElementById("play-history").replaceChildren();
  document.getElementById("play-result").replaceChildren(element("p", "", "No hand has ended yet."));
  await refresh();
}

async function refresh() {
  clearTimeout(seat.timer);
  const table = seat.table;
  const answer = await request("GET", withQuery(`/v1/tables/${table.table_id}`, { seat: seat.number, token: seat.token }));
  if (table === seat.table) await show(answer);
}

/** Take in an answer: the history's new events are played out (at once the first time), then the table drawn. */
async function show(answer) {
  const table = seat.table;
  const history = await request("GET", withQuery(`/v1/tables/${table.table_id}/history`, { token: seat.token }));
  if (table !== seat.table) return;
  for (const action of answer.view.legal_actions) for (const card of action.cards) knownCards.add(card);
  seat.answer = answer;
  const fresh = history.events.slice(seat.seen);
  seat.seen = history.events.length;
  if (seat.drawn === null) {
    fresh.forEach(takeEvent);
    finishPlayout();
  } else {
    seat.queue.push(...fresh);
    playOut();
  }
  if (!answer.your_turn && !answer.finished) seat.timer = setTimeout(() => guarded(refresh), POLL_MS);
}

function pace() {
  return Number(document.getElementById("play-pace").value);
}

/** An event worth a pause: another seat's move, or a hand's result. */
function paced(event) {
  return (event.seat !== seat.number && typeof event.seat === "number" && event.label !== undefined) || event.kind === "result";
}

/** Play the queued events out, pausing after each paced one; then draw the table as it stands. */
function playOut() {
  if (seat.playTimer !== null) return;
  while (seat.queue.length) {
    const event = seat.queue.shift();
    takeEvent(event);
    if (paced(event) && pace() > 0) {
      drawPlaying(event);
      seat.playTimer = setTimeout(() => {
        seat.playTimer = null;
        guarded(async () => playOut());
      }, pace());
      return;
    }
  }
  finishPlayout();
}

function playingOut() {
  return seat.playTimer !== null || seat.queue.length > 0;
}

/** One event into the history list (the last highlighted), its seat's last move and, for a result, the result. */
function takeEvent(event) {
  const describe = seat.renderer?.describe;
  const list = document.getElementById("play-history");
  list.querySelector(".current")?.classList.remove("current");
  const line = eventElement(event, seat.names, describe);
  line.classList.add("current");
  list.append(line);
  if (event.kind === "start") seat.lastActions = [];
  list.scrollTop = list.scrollHeight;
  const move = event.label ? eventMove(event, describe) : null; // a move, not a deal or a draw
  if (move) {
    seat.lastActions[event.seat] = move;
    seat.lastSeat = event.seat;
  }
  if (event.kind === "result") drawResult(event);
}

function drawPlaying(event) {
  document.getElementById("play-status").textContent =
    event.kind === "result" ? `Hand ${event.hand + 1} is over.` : `${seat.names(event.seat)} moved…`;
  drawTable(seat.drawn.view, event.seat);
  drawActions();
}

function finishPlayout() {
  seat.drawn = seat.answer;
  drawStatus(seat.answer);
  drawTable(seat.answer.view, seat.answer.to_act);
  drawActions();
}

function drawStatus(answer) {
  let text;
  if (answer.finished) text = `Game over: ${rewardsText(answer.rewards, seat.names)}.`;
  else if (answer.your_turn) text = `Your turn${answer.seconds_left === null ? "" : ` (${Math.round(answer.seconds_left)} s left)`}: choose an action.`;
  else text = `Waiting for ${seat.names(answer.to_act)}${answer.bots_thinking ? ", who is thinking" : ""}…`;
  document.getElementById("play-status").textContent = text;
}

function tableSeats() {
  return seat.table.seats.map((entry) => ({ number: entry.seat, name: seat.names(entry.seat) }));
}

/** The felt from `view` (the seat `toAct` outlined), your hand from the latest view, every field under "details". */
function drawTable(view, toAct) {
  const choice = { cards: playableCards(), selected: seat.selection, toggle: toggleCard };
  const drawCard = (code, clickable = true) => cardElement(code, clickable && choice.cards.has(code) ? choice : null);
  const details = folded("details: every field of the view", fieldsElement(view, SHOWN_APART));
  const settings = folded("settings", fieldsElement(view.settings, []));
  const render = seat.renderer?.render;
  const hand = document.getElementById("play-hand");
  if (!render) {
    document.getElementById("play-view").replaceChildren(fieldsElement(view, SHOWN_APART, choice), settings);
    hand.replaceChildren();
    return;
  }
  const table = { seats: tableSeats(), you: seat.number, toAct, lastSeat: seat.lastSeat, lastActions: seat.lastActions };
  document.getElementById("play-view").replaceChildren(tableElement(render(view), table, drawCard), details, settings);
  hand.replaceChildren(handElement(render(seat.answer.view), drawCard));
}

function folded(summary, content) {
  const details = element("details");
  details.append(element("summary", "", summary), content);
  return details;
}

function drawResult(event) {
  const result = document.getElementById("play-result");
  result.replaceChildren(resultElement(event, seat.names, seat.renderer?.result));
  result.closest("details").open = true;
}

/** The cards some legal action plays, while it is your turn and nothing is left to play out. */
function playableCards() {
  if (!seat.answer.your_turn || playingOut()) return new Set();
  return new Set(seat.answer.view.legal_actions.flatMap((action) => action.cards));
}

function toggleCard(card) {
  if (seat.selection.has(card)) seat.selection.delete(card);
  else seat.selection.add(card);
  drawTable(seat.drawn.view, seat.drawn.to_act);
  drawActions();
}

/** The action's words and the cards it plays. */
function actionText(action) {
  return seat.renderer?.describe?.(action) ?? action.label;
}

/** The legal actions, numbered from 1; with cards selected, only those that take all of them. */
function drawActions() {
  const box = document.getElementById("play-actions");
  box.replaceChildren();
  if (!seat.answer.your_turn || playingOut()) return;
  const legal = seat.answer.view.legal_actions;
  // Many card moves (Piktas's swaps) wait behind their cards: clicking one shows the moves that play it.
  const folded = legal.length > FOLD_OVER && !seat.selection.size;
  const behindCards = folded ? legal.filter((action) => action.cards.length).length : 0;
  legal.forEach((action, index) => {
    const button = element("button", "action", `${index + 1}. ${actionText(action)}`);
    if (action.cards.length) button.append(" ", ...action.cards.map((code) => cardElement(code)));
    button.type = "button";
    button.dataset.action = action.id;
    button.dataset.label = action.label;
    button.hidden = (folded && action.cards.length > 0) || ![...seat.selection].every((card) => action.cards.includes(card));
    button.addEventListener("click", () => guarded(() => playAction(action)));
    box.append(button);
  });
  if (seat.selection.size) box.prepend(selectionControls());
  if (behindCards) box.append(element("span", "hint", `or click a card to see the ${behindCards} moves that play cards`));
}

function selectionControls() {
  const controls = element("div", "selection");
  controls.append(element("span", "", "Selected: "), cardRow([...seat.selection], (code) => cardElement(code)));
  if (selectionMove()) {
    const submit = element("button", "submit", "Play the selected cards (Enter)");
    submit.type = "button";
    submit.id = "play-selection";
    submit.addEventListener("click", () => guarded(playSelection));
    controls.append(submit);
  } else controls.append(element("span", "hint", "Choose one of the actions below, or select more cards."));
  const clear = element("button", "", "Clear");
  clear.type = "button";
  clear.addEventListener("click", clearSelection);
  controls.append(clear);
  return controls;
}

function clearSelection() {
  seat.selection.clear();
  drawTable(seat.drawn.view, seat.drawn.to_act);
  drawActions();
}

/** Every control of the seat off while a move is on its way, so that a double click plays once. */
function setSending(sending) {
  seat.sending = sending;
  for (const control of document.querySelectorAll("#play-actions button, #play-dock button.card, #play-view button.card")) control.disabled = sending;
}

/** Play `action` on the view it was chosen on (its move number echoed): a view the table has moved past is read again.
 * The seat's controls stay off until the answer is drawn, so a second click cannot reach the old view's buttons. */
async function playAction(action) {
  if (seat.sending) return;
  const table = seat.table;
  const body = { seat: seat.number, token: seat.token, action: action.id, move: seat.answer.move };
  setSending(true);
  try {
    let answer;
    let notice = "";
    try {
      answer = await request("POST", `/v1/tables/${table.table_id}/actions`, body);
    } catch (error) {
      if (!(error instanceof ApiError && error.message.startsWith("stale_view"))) throw error;
      notice = "The table moved on before your move arrived: here is where it stands now; choose again.";
      answer = await request("GET", withQuery(`/v1/tables/${table.table_id}`, { seat: seat.number, token: seat.token }));
    }
    say(notice, true);
    seat.selection.clear();
    if (table === seat.table) await show(answer);
  } finally {
    if (table === seat.table) setSending(false);
  }
}

function sameCards(action, cards) {
  return action.cards.length === cards.size && action.cards.every((card) => cards.has(card));
}

/** The first move the selected cards make: the one action that plays exactly them, or else a `pick` of a
 * still unpicked selected card, or `done` once every one is picked (the PICK … DONE draws); null for none. */
function selectionMove(picked = new Set()) {
  const wanted = seat.selection;
  const legal = seat.answer.your_turn ? seat.answer.view.legal_actions : [];
  const exact = legal.filter((action) => action.kind !== "pick" && sameCards(action, wanted));
  if (exact.length === 1) return exact[0];
  const picks = legal.filter((action) => action.kind === "pick" && wanted.has(action.cards[0]) && !picked.has(action.cards[0]));
  const done = legal.filter((action) => action.kind === "done");
  if (picks.length + picked.size === wanted.size && picks.length) return picks[0];
  if (picked.size === wanted.size && done.length === 1) return done[0];
  return null;
}

async function playSelection() {
  const picked = new Set();
  for (;;) {
    const move = selectionMove(picked);
    if (!move) throw new Error(`no single legal action plays exactly ${[...seat.selection].join(" ")}: choose one of the buttons`);
    if (move.kind === "pick") picked.add(move.cards[0]);
    const wanted = new Set(seat.selection);
    await playAction(move);
    if (move.kind !== "pick") return;
    seat.selection = wanted;
  }
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
  if (document.getElementById("play").hidden || !seat.answer?.your_turn || seat.sending || playingOut()) return;
  if (event.target.closest("input, textarea, select")) return;
  if (/^[0-9]$/.test(event.key)) numberTyped(event.key);
  else if (event.key === "Enter" && seat.selection.size) {
    event.preventDefault();
    guarded(playSelection);
  }
  else if (event.key === "Escape") clearSelection();
}

document.addEventListener("keydown", onKey);
