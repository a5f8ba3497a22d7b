// What every view of the page shares: the message line, the tabs, the last table seated here.

/** The last table this page created: its creator token reads its records once it has ended. */
export const lastTable = { table: null };

/** Show an error (or, with `ok`, a notice) above the page until the next one. */
export function say(text, ok = false) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.className = ok ? "ok" : "error";
  message.hidden = !text;
}

/** Run `task`, showing its error instead of losing it. */
export async function guarded(task) {
  try {
    await task();
  } catch (error) {
    say(error.message);
  }
}

/** Show one panel: lobby, play, watch or replay. */
export function showTab(name) {
  for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== name;
  for (const tab of document.querySelectorAll("[data-tab]")) tab.setAttribute("aria-pressed", String(tab.dataset.tab === name));
}

/** The game's own renderer module (`deck`, `render(view)`, `describe(action)`: docs/web.md), or null when it ships none. */
export async function loadRenderer(game) {
  if (!game.renderer) return null;
  try {
    return await import(game.renderer);
  } catch (error) {
    throw new Error(`${game.env_id}'s renderer ${game.renderer} did not load (${error.message})`);
  }
}
