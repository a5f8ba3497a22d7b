// Watching an all-bot table on the table: its public history one event at a time at the chosen pace, forward and back.

import { api, withQuery } from "./api.js";
import { rewardsText, seatNamer, useDeck } from "./render.js";
import { drawStage } from "./stage.js";
import { guarded, loadRenderer } from "./page.js";

const POLL_MS = 600;
const watching = { table: null, names: null, seats: 0, renderer: null, events: [], shown: 0, paused: false, timer: null, view: null };

function places() {
  const byId = (id) => document.getElementById(id);
  return { view: byId("watch-view"), list: byId("watch-events"), result: byId("watch-result") };
}

/** Watch a table of bots just created, as a spectator (its spectator token). */
export async function startWatching(table, game) {
  clearTimeout(watching.timer);
  const renderer = await loadRenderer(game);
  useDeck(renderer?.deck);
  Object.assign(watching, { table, renderer, events: [], shown: 0, paused: false });
  document.getElementById("watch-pause").textContent = "Pause";
  await read();
  document.getElementById("watch-title").textContent = `${table.game} · ${watching.view.seats.join(" vs ")}`;
  step();
}

/** The table's public history and state as the spectator token reads them. */
async function read() {
  const { table } = watching;
  const token = table.spectator_token;
  const [spectated, history] = await Promise.all([
    api("GET", withQuery(`/v1/tables/${table.table_id}/spectate`, { token })),
    api("GET", withQuery(`/v1/tables/${table.table_id}/history`, { token })),
  ]);
  if (table !== watching.table) return;
  Object.assign(watching, { view: spectated, events: history.events, seats: spectated.seats.length, names: seatNamer(spectated.seats, null) });
}

function pace() {
  return Number(document.getElementById("pace").value);
}

/** One event forward, then the next after the pace; at the end of what has happened, read the table again until it is over. */
function step() {
  clearTimeout(watching.timer);
  if (watching.shown < watching.events.length) watching.shown += 1;
  draw();
  if (watching.paused) return;
  if (watching.shown < watching.events.length) watching.timer = setTimeout(step, pace());
  else if (!watching.view.view.finished) watching.timer = setTimeout(() => guarded(async () => {
    await read();
    step();
  }), POLL_MS);
}

function draw() {
  const { events, shown, view, names } = watching;
  drawStage(places(), events, shown, names, watching.seats, watching.renderer);
  let text = `event ${shown} of ${events.length}`;
  if (shown === events.length) text = view.view.finished ? `Game over: ${rewardsText(view.view.rewards, names)}.` : `${text}; the bots play on`;
  document.getElementById("watch-status").textContent = text;
}

function setPaused(paused) {
  watching.paused = paused;
  document.getElementById("watch-pause").textContent = paused ? "Resume" : "Pause";
  clearTimeout(watching.timer);
}

/** Step by hand: pause, then one event back or forward. */
function moveBy(delta) {
  if (!watching.table) return;
  setPaused(true);
  watching.shown = Math.min(Math.max(watching.shown + delta, 1), watching.events.length);
  draw();
}

document.getElementById("watch-pause").addEventListener("click", () => {
  if (!watching.table) return;
  setPaused(!watching.paused);
  if (!watching.paused) step();
});
document.getElementById("watch-back").addEventListener("click", () => moveBy(-1));
document.getElementById("watch-forward").addEventListener("click", () => moveBy(1));
