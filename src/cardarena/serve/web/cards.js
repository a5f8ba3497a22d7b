// Cards drawn as SVG faces from a deck's description (each game ships its deck's: docs/web.md).
//
// A deck is { suits: { code: { name, colour } }, face(code) → { rank, suits: [suit codes], name } | null }.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 40;
const HEIGHT = 56;
const UNKNOWN_COLOUR = "#5f6b76";

function svgNode(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function picture(title) {
  const svg = svgNode("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title });
  svg.append(svgNode("title", {}, title));
  return svg;
}

/** The face of `code`, drawn from `deck`; a code the deck does not describe is drawn as plain text. */
export function cardFace(code, deck) {
  const face = deck?.face(code) ?? { rank: code, suits: [], name: code };
  const colours = face.suits.map((suit) => deck.suits[suit].colour);
  const ink = colours[0] ?? UNKNOWN_COLOUR;
  const svg = picture(face.name);
  svg.append(svgNode("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 4, fill: "white", stroke: ink, "stroke-width": 2 }));
  const band = (HEIGHT - 20) / Math.max(colours.length, 1);
  colours.forEach((colour, index) => svg.append(svgNode("rect", { x: 6, y: 18 + index * band, width: WIDTH - 12, height: band - 2, rx: 2, fill: colour })));
  const rankSize = face.rank.length > 3 ? 9 : face.rank.length > 2 ? 11 : 15;
  svg.append(svgNode("text", { x: WIDTH / 2, y: 15, "text-anchor": "middle", "font-size": rankSize, "font-weight": 700, fill: ink }, face.rank));
  const letters = face.suits.join("");
  if (letters) svg.append(svgNode("text", { x: WIDTH / 2, y: HEIGHT - 9, "text-anchor": "middle", "font-size": letters.length > 2 ? 10 : 13, "font-weight": 700, fill: "white" }, letters));
  return svg;
}

/** A face-down card: the same back for every hidden card, so it tells nothing. */
export function cardBack() {
  const svg = picture("a face-down card");
  svg.append(svgNode("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 4, fill: "#24528f", stroke: "#12315a", "stroke-width": 2 }));
  svg.append(svgNode("rect", { x: 6, y: 6, width: WIDTH - 12, height: HEIGHT - 12, rx: 2, fill: "none", stroke: "#9cb8e0", "stroke-dasharray": "3 2" }));
  return svg;
}
