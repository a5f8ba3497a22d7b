// Yokir's table for the web table (docs/web.md): trump and its top cards, the trick in play, the seat's hand, the seats' counts.

/** The table layout of one Yokir seat view; `kit` draws cards (clickable when playable) and values. */
export function render(view, kit) {
  const table = kit.element("div", "yokir");
  const line = (label, ...items) => {
    const row = kit.element("p");
    row.append(kit.element("strong", "", `${label} `), ...items);
    table.append(row);
  };
  const card = (code) => (code ? kit.card(code) : kit.element("span", "none", "—"));
  line("Trump", kit.element("span", "", view.trump ?? "not yet named"), " · oracle ", card(view.oracle), " · sage ", card(view.sage), " · up card ", card(view.up_card));
  const trick = view.trick.cards.map(card);
  line(view.trick.leader === null ? "Trick" : `Trick led by seat ${view.trick.leader}`, ...(trick.length ? trick : [kit.element("span", "none", "no card yet")]));
  line("Your hand", ...view.hand.map(card));
  const seats = view.scores.map((score, seat) => {
    const role = [seat === view.dealer ? "dealer" : "", seat === view.caller ? "caller" : "", seat === view.seat ? "you" : ""].filter(Boolean);
    return `seat ${seat}${role.length ? ` (${role.join(", ")})` : ""}: ${view.tricks_won[seat]} tricks, ${score} points`;
  });
  line("Seats", kit.element("span", "", seats.join(" · ")));
  return table;
}
