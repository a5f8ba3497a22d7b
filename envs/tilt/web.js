// Tilt for the web table (docs/web.md): the Voyage deck's faces and the Void deck's Hazards; the page draws its seat view generically.
import { suitedFace } from "/web/decks/faces.js";

const COMMANDS = { K9: "Engineer", K10: "Scientist", K11: "Quartermaster", K12: "Captain" };
const HAZARDS = {
  FINE: "The Fine Print", LEAK: "Leak in the Fuel Line", MUTI: "Mutinous Days", DIST: "Always Answer Distress Signals",
  STSH: "Captain's Reserve Stash", ARMR: "Well-Stocked Armory", BINY: "Binary System", HULL: "Hull Breach",
  GRAV: "Inexorable Gravity", TEAM: "The Value of Teamwork", TRST: "Trust Your People", GALY: "Fine Galley",
  HAUL: "Counting the Haul", CHKN: "Game of Chicken", JUMP: "Wild Jump", PAYC: "Corporate Paycheck",
  TRIK: "Always Have Another Trick", EXPD: "Expendable Ranks", TAXS: "Import Taxes", VOTE: "Vote of No Confidence",
  SABO: "Saboteur in the Ranks", SHAR: "Dividing the Shares", ENGB: "Engine Breach",
};

export const deck = {
  suits: {
    C: { name: "Crew", colour: "#c62828" },
    P: { name: "Planets", colour: "#2e7d32" },
    S: { name: "Stars", colour: "#1565c0" },
    H: { name: "Ships", colour: "#37474f" },
    V: { name: "Void", colour: "#4a148c" },
  },
  face(code) {
    const number = code.match(/^([CPSH])([1-8])$/);
    if (number) return suitedFace(deck, number[1], number[2]);
    if (COMMANDS[code]) return { rank: code.slice(1), suits: ["C", "P", "S", "H"], name: `the ${COMMANDS[code]}` };
    if (HAZARDS[code]) return { rank: code, suits: ["V"], name: `Hazard: ${HAZARDS[code]}` };
    return null;
  },
};
