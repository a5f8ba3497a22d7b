// Piktas for the web table (docs/web.md): its deck's faces; the page draws its seat view generically.
import { suitedFace } from "/web/decks/faces.js";

const TRUMP_NAMES = {
  TOW1: "Tree", TOW2: "Grain", TOK1: "Eagle", TOK2: "Bee", TOU1: "Lizard", TOU2: "Serpent", TOM1: "Rabbit", TOM2: "Coyote",
  TWK1: "Goose", TWK2: "Toad", TWU1: "Reeds", TWU2: "Man", TWM1: "Lily", TWM2: "Woman", TKU1: "Raven", TKU2: "Sagebrush",
  TKM1: "Bat", TKM2: "Beetle", TUM1: "Jackal", TUM2: "Mountain lion",
};

export const deck = {
  suits: {
    O: { name: "Stone", colour: "#6d4c41" },
    W: { name: "Water", colour: "#1565c0" },
    K: { name: "Sky", colour: "#00838f" },
    U: { name: "Sun", colour: "#d68a00" },
    M: { name: "Moon", colour: "#6a1b9a" },
  },
  face(code) {
    const pip = code.match(/^([OWKUM])(10|[1-9])$/);
    if (pip) return suitedFace(deck, pip[1], pip[2]);
    if (TRUMP_NAMES[code]) return { rank: "T", suits: [code[1], code[2]], name: `${TRUMP_NAMES[code]} (trump)` };
    if (code === "V1" || code === "V2") return { rank: "Void", suits: [], name: "a void" };
    return null;
  },
};
