// Replaying recorded hands (cardarena.record/1 lines) on the table: step forward and back through each hand's events.

import { api, withQuery } from "./api.js";
import { seatNamer, useDeck } from "./render.js";
import { drawStage } from "./stage.js";
import { guarded, lastTable, loadRenderer, say } from "./page.js";

const RECORD_FORMAT = "cardarena.record/1";
const replay = { records: [], events: [], shown: 0, seats: 0, names: null, renderer: null, gameOf: () => undefined };

/** Records from the text of a JSON-lines record file; throws naming the first bad line. */
export function parseRecords(text) {
  const lines = text.split("\n").map((line) => line.trim());
  const records = [];
  lines.forEach((line, index) => {
    if (!line) return;
    let record;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw new Error(`line ${index + 1} of the record file is not JSON (${error.message})`);
    }
    if (record.format !== RECORD_FORMAT || !Array.isArray(record.log)) {
      throw new Error(`line ${index + 1} of the record file is not a ${RECORD_FORMAT} hand record`);
    }
    records.push(record);
  });
  if (!records.length) throw new Error("the record file holds no hand");
  return records;
}

function handCount(records) {
  return records.length === 1 ? "1 hand" : `${records.length} hands`;
}

async function load(records) {
  replay.records = records;
  const choice = document.getElementById("replay-hand");
  choice.replaceChildren(
    ...records.map((record, index) => {
      const episode = record.episode === undefined ? "" : `episode ${record.episode}, `;
      const seats = record.seats ? ` · ${record.seats.join(" vs ")}` : "";
      return new Option(`${record.game}: ${episode}hand ${record.hand + 1}${seats}`, index);
    }),
  );
  await chooseHand(0);
}

/** Show the hand `index` from its first event, drawn with its game's renderer. */
async function chooseHand(index) {
  const record = replay.records[index];
  const game = replay.gameOf(record.game);
  replay.renderer = game ? await loadRenderer(game) : null;
  useDeck(replay.renderer?.deck);
  replay.events = record.log;
  replay.seats = record.seats?.length ?? record.log.find((event) => event.kind === "result")?.rewards.length ?? 0;
  replay.names = seatNamer(record.seats, null);
  replay.shown = 1;
  draw();
}

function moveTo(shown) {
  if (!replay.events.length) return;
  replay.shown = Math.min(Math.max(shown, 1), replay.events.length);
  draw();
}

function draw() {
  const { events, shown } = replay;
  const byId = (id) => document.getElementById(id);
  drawStage({ view: byId("replay-view"), list: byId("replay-events"), result: byId("replay-result") }, events, shown, replay.names, replay.seats, replay.renderer);
  byId("replay-status").textContent = `event ${shown} of ${events.length}`;
}

async function readFile(input) {
  const [file] = input.files;
  if (!file) return;
  await load(parseRecords(await file.text()));
  say(`${file.name}: ${handCount(replay.records)}`, true);
}

/** The hands of the last table created here, through its creator token, once it has ended. */
async function readLastTable() {
  const table = lastTable.table;
  if (!table) throw new Error("no table was created from this page yet: seat one in the lobby, or open a record file");
  const history = await api("GET", withQuery(`/v1/tables/${table.table_id}/history`, { token: table.creator_token }));
  if (!history.records?.length) throw new Error("the last table has finished no hand yet");
  await load(history.records);
  say(`table ${table.table_id.slice(0, 8)}: ${handCount(history.records)}`, true);
}

function onKey(event) {
  if (document.getElementById("replay").hidden || event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowRight") moveTo(replay.shown + 1);
  else if (event.key === "ArrowLeft") moveTo(replay.shown - 1);
}

/** Wire the replay panel's controls; `gameOf(envId)` is a game of `GET /v1/games`, for its renderer. */
export function setUpReplay(gameOf) {
  replay.gameOf = gameOf;
  const byId = (id) => document.getElementById(id);
  byId("record-file").addEventListener("change", (event) => guarded(() => readFile(event.target)));
  byId("replay-last").addEventListener("click", () => guarded(readLastTable));
  byId("replay-hand").addEventListener("change", (event) => guarded(() => chooseHand(Number(event.target.value))));
  byId("replay-first").addEventListener("click", () => moveTo(1));
  byId("replay-back").addEventListener("click", () => moveTo(replay.shown - 1));
  byId("replay-forward").addEventListener("click", () => moveTo(replay.shown + 1));
  byId("replay-last-event").addEventListener("click", () => moveTo(replay.events.length));
  document.addEventListener("keydown", onKey);
}
