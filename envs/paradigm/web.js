// Paradigm for the web table (docs/web.md): the Scarp deck's faces; the page draws its seat view generically.

export { deck } from "/web/decks/scarp.js";
