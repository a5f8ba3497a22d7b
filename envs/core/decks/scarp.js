// The Scarp deck's faces for the web table (docs/web.md), shared by every game played with it.
import { suitedFace } from "./faces.js";

const ESSENCES = { SUN: "L", STONE: "S", KNIFE: "D", ROSE: "H" };

export const deck = {
  suits: {
    L: { name: "Light", colour: "#c79100" },
    S: { name: "Shade", colour: "#37474f" },
    D: { name: "Death", colour: "#6a1b9a" },
    H: { name: "Life", colour: "#2e7d32" },
  },
  face(code) {
    const number = code.match(/^([LSDH])(10|[1-9])$/);
    if (number) return suitedFace(deck, number[1], number[2]);
    const suit = ESSENCES[code];
    if (suit) return { rank: code, suits: [suit], name: `${code.toLowerCase()}, the Essence of ${deck.suits[suit].name}` };
    if (code === "GHOST") return { rank: "GHOST", suits: [], name: "the Ghost" };
    return null;
  },
};
