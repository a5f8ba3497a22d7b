// A game's rules page (Markdown, as its docs page is written) drawn as page elements: headings, paragraphs,
// lists, tables, code; inline code, bold, italics and link texts. Text is only ever set as text, never as HTML.

import { element } from "./render.js";

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|\[[^\]]+\]\([^)]*\))/;

/** One line's inline marks as nodes. */
function inline(text) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    if (part.startsWith("`")) return element("code", "", part.slice(1, -1));
    if (part.startsWith("**")) return element("strong", "", part.slice(2, -2));
    if (part.startsWith("*") && part.length > 2) return element("em", "", part.slice(1, -1));
    if (part.startsWith("[")) return document.createTextNode(part.slice(1, part.indexOf("](")));
    return document.createTextNode(part);
  });
}

function cells(line) {
  return line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
}

function tableOf(lines) {
  const table = element("table", "rules-table");
  lines.filter((line, index) => index !== 1).forEach((line, index) => {
    const row = element("tr");
    for (const cell of cells(line)) {
      const node = element(index === 0 ? "th" : "td");
      node.append(...inline(cell));
      row.append(node);
    }
    table.append(row);
  });
  const box = element("div", "standings-box");
  box.append(table);
  return box;
}

/** The Markdown `text` as a block of page elements. */
export function markdownElement(text) {
  const box = element("div", "markdown");
  const lines = text.split("\n");
  let index = 0;
  const take = (test) => {
    const block = [];
    while (index < lines.length && test(lines[index])) block.push(lines[index++]);
    return block;
  };
  while (index < lines.length) {
    const line = lines[index];
    const heading = line.match(/^(#{1,4}) (.*)/);
    if (!line.trim()) index++;
    else if (heading) {
      const node = element(`h${Math.min(heading[1].length + 2, 6)}`);
      node.append(...inline(heading[2]));
      box.append(node);
      index++;
    } else if (line.startsWith("```")) {
      index++;
      box.append(element("pre", "", take((next) => !next.startsWith("```")).join("\n")));
      index++;
    } else if (line.startsWith("|")) box.append(tableOf(take((next) => next.startsWith("|"))));
    else if (/^\s*(?:[-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const list = element(ordered ? "ol" : "ul");
      for (const item of take((next) => next.trim() && !next.startsWith("#") && !next.startsWith("|"))) {
        if (/^\s*(?:[-*]|\d+\.) /.test(item)) {
          const entry = element("li");
          entry.append(...inline(item.replace(/^\s*(?:[-*]|\d+\.) /, "")));
          list.append(entry);
        } else list.lastElementChild?.append(" ", ...inline(item.trim()));
      }
      box.append(list);
    } else {
      const paragraph = element("p");
      paragraph.append(...inline(take((next) => next.trim() && !/^(#|```|\||\s*(?:[-*]|\d+\.) )/.test(next)).join(" ")));
      box.append(paragraph);
    }
  }
  return box;
}

/** What a newcomer reads of a game's docs page: its opening paragraph and its "Rules" section. */
export function rulesOf(page) {
  const opening = page.split("\n\n")[1] ?? "";
  const start = page.indexOf("\n## Rules");
  if (start < 0) return opening;
  const end = page.indexOf("\n## ", start + 1);
  return `${opening}\n\n${page.slice(start, end < 0 ? undefined : end)}`;
}
