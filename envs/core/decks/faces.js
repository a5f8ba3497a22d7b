// The faces every deck draws alike, for the decks of the web table (docs/web.md).

/** A suited card: its rank above its suit's band, named "7 of Stone" (or by `rankName`, "Master of Artists"). */
export function suitedFace(deck, suit, rank, rankName = rank) {
  return { rank, suits: [suit], name: `${rankName} of ${deck.suits[suit].name}` };
}
