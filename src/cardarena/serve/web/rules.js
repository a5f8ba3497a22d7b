// The rules panel: how to play the chosen game, from its rules page (`rules` of GET /v1/games), read when first opened.

import { pageText } from "./api.js";
import { guarded } from "./page.js";
import { markdownElement, rulesOf } from "./markdown.js";

const rules = { game: null, drawn: null };

async function draw() {
  const { game } = rules;
  if (!game?.rules || rules.drawn === game) return;
  const page = await pageText(game.rules);
  if (game !== rules.game) return;
  document.getElementById("rules-text").replaceChildren(markdownElement(rulesOf(page)));
  rules.drawn = game;
}

/** The rules panel speaks of `game` from now on. */
export function useRules(game) {
  rules.game = game;
  document.getElementById("rules-title").textContent = game.rules ? `How to play ${game.name}: the rules` : `${game.name} ships no rules page`;
  if (rules.drawn !== game) document.getElementById("rules-text").replaceChildren();
  if (document.getElementById("rules").open) guarded(draw);
}

document.getElementById("rules").addEventListener("toggle", (event) => {
  if (event.target.open) guarded(draw);
});
