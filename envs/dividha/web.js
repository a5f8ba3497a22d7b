// Dividha for the web table (docs/web.md): its five suits' faces and the wild cards; the page draws its seat view generically.
import { suitedFace } from "/web/decks/faces.js";

const THE_THREE = { MIN: "Min", RAL: "Ral", SAN: "San" };

export const deck = {
  suits: {
    H: { name: "Humans", colour: "#c62828" },
    D: { name: "Demi-Humans", colour: "#e0620d" },
    B: { name: "Beasts", colour: "#2e7d32" },
    V: { name: "Heaven", colour: "#1565c0" },
    L: { name: "Hell", colour: "#222831" },
  },
  face(code) {
    const card = code.match(/^([AKQJ765432])([HDBVL])$/) ?? code.match(/^(6)(V)[123]$/);
    if (card) return suitedFace(deck, card[2], card[1]);
    if (THE_THREE[code]) return { rank: "6", suits: ["L"], name: `6 of Hell (${THE_THREE[code]})` };
    if (code === "GOD") return { rank: "God", suits: ["V"], name: "God (wild, Heaven)" };
    if (code === "SATAN") return { rank: "Satan", suits: ["L"], name: "Satan (wild, Hell)" };
    return null;
  },
};
