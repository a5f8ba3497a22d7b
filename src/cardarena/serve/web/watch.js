// Watching an all-bot table: its public history, one event at a time at the chosen pace, then its result.

import { api, withQuery } from "./api.js";
import { element, eventElement, rewardsText, seatNamer, valueElement } from "./render.js";
import { guarded } from "./page.js";

const watching = { table: null, events: [], shown: 0, paused: false, timer: null, result: null };

/** Watch a table of bots just created, as a spectator (its spectator token). */
export async function startWatching(table) {
  clearTimeout(watching.timer);
  const token = table.spectator_token;
  const [spectated, history] = await Promise.all([
    api("GET", withQuery(`/v1/tables/${table.table_id}/spectate`, { token })),
    api("GET", withQuery(`/v1/tables/${table.table_id}/history`, { token })),
  ]);
  Object.assign(watching, { table, seats: spectated.seats, events: history.events, shown: 0, paused: false, result: spectated.view });
  document.getElementById("watch-title").textContent = `${table.game} · ${spectated.seats.join(" vs ")}`;
  document.getElementById("watch-events").replaceChildren();
  document.getElementById("watch-result").replaceChildren();
  document.getElementById("watch-pause").textContent = "Pause";
  step();
}

function pace() {
  return Number(document.getElementById("pace").value);
}

function step() {
  const { events } = watching;
  if (watching.shown < events.length) {
    const event = events[watching.shown++];
    const list = document.getElementById("watch-events");
    list.append(eventElement(event, seatNamer(watching.seats, null)));
    list.lastElementChild.scrollIntoView({ block: "nearest" });
    if (event.kind === "result") showHandResult(event);
  }
  drawStatus();
  if (watching.shown < events.length && !watching.paused) watching.timer = setTimeout(step, pace());
}

function showHandResult(event) {
  const result = element("div", "result");
  result.append(element("h3", "", `Hand ${event.hand + 1} result`), valueElement(event));
  document.getElementById("watch-result").replaceChildren(result);
}

function drawStatus() {
  const { events, shown, result } = watching;
  let text = `event ${shown} of ${events.length}`;
  if (shown === events.length) text = result.finished ? `The table is over. Rewards: ${rewardsText(result.rewards, seatNamer(watching.seats, null))}.` : `${text}; the table plays on`;
  document.getElementById("watch-status").textContent = text;
}

function togglePause() {
  if (!watching.table) return;
  watching.paused = !watching.paused;
  document.getElementById("watch-pause").textContent = watching.paused ? "Resume" : "Pause";
  clearTimeout(watching.timer);
  if (!watching.paused) step();
}

document.getElementById("watch-pause").addEventListener("click", () => guarded(async () => togglePause()));
