// The page: tabs, messages and the lobby that seats a table to play or to watch.

import { api, useApiKey } from "./api.js";
import { element } from "./render.js";
import { guarded, lastTable, say, showTab } from "./page.js";
import { startPlaying } from "./play.js";
import { startWatching } from "./watch.js";
import { chosenSettings, drawSettings } from "./settings.js";
import { useRules } from "./rules.js";
import { setUpReplay } from "./replay.js";

const YOU = "";
let games = [];
let bots = [];

function chosenGame() {
  return games.find((game) => game.env_id === document.getElementById("game").value);
}

function botsFor(game) {
  return bots.filter((bot) => bot.game === null || bot.game === game.name).map((bot) => bot.name);
}

function drawSeats() {
  const game = chosenGame();
  const players = document.getElementById("players");
  players.min = game.min_players;
  players.max = game.max_players;
  const count = Math.min(Math.max(Number(players.value) || game.settings.num_players, game.min_players), game.max_players);
  players.value = count;
  const names = botsFor(game);
  const heuristic = names.find((name) => name.endsWith("/heuristic")) ?? names[0];
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const choice = element("select");
    choice.setAttribute("aria-label", `seat ${seat}`);
    choice.append(new Option("you (this page)", YOU));
    for (const name of names) choice.append(new Option(name, name));
    choice.value = seat === 0 ? YOU : heuristic;
    const item = element("li");
    item.append(element("span", "", `seat ${seat} `), choice);
    seats.append(item);
  }
}

function tableRequest() {
  const game = chosenGame();
  const settings = chosenSettings(game);
  const seats = [...document.querySelectorAll("#seats select")].map((choice) => choice.value || null);
  const seed = document.getElementById("seed").value;
  useApiKey(document.getElementById("api-key").value);
  return {
    game: game.env_id,
    config: { ...settings, num_players: seats.length },
    seats,
    seed: seed === "" ? null : Number(seed),
  };
}

/** Create the table and show the panel `tab` that follows it. */
async function openTable(request, tab) {
  const table = await api("POST", "/v1/tables", request);
  lastTable.table = table;
  say("");
  showTab(tab);
  return table;
}

async function play(event) {
  event.preventDefault();
  const request = tableRequest();
  const clients = request.seats.filter((seat) => seat === null).length;
  if (clients !== 1) throw new Error(`choose exactly one seat for yourself (${clients} chosen); to watch, seat only bots`);
  await startPlaying(await openTable(request, "play"), chosenGame());
}

async function watch() {
  const request = tableRequest();
  if (request.seats.includes(null)) throw new Error("to watch, every seat must be a bot");
  await startWatching(await openTable(request, "watch"), chosenGame());
}

async function loadLobby() {
  [games, bots] = await Promise.all([api("GET", "/v1/games"), api("GET", "/v1/bots")]);
  const choice = document.getElementById("game");
  for (const game of games) choice.append(new Option(`${game.name} (${game.env_id})`, game.env_id));
  document.getElementById("players").value = games[0].settings.num_players;
  drawSeats();
  drawSettings(games[0]);
  useRules(games[0]);
}

function setUp() {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  document.getElementById("game").addEventListener("change", () => {
    document.getElementById("players").value = chosenGame().settings.num_players;
    drawSeats();
    drawSettings(chosenGame());
    useRules(chosenGame());
  });
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("lobby-form").addEventListener("submit", (event) => guarded(() => play(event)));
  document.getElementById("watch-button").addEventListener("click", () => guarded(watch));
  setUpReplay((envId) => games.find((game) => game.env_id === envId));
  guarded(loadLobby);
}

setUp();
