// The lobby's settings form, drawn from the game's config schema (`settings_schema` of GET /v1/games): each
// setting with its default and its allowed values; the server judges the values and says what is wrong.

import { element } from "./render.js";

// Settings the table sets apart (the seats count) or that only training uses (what an illegal action does).
const NOT_ASKED = ["num_players", "on_illegal", "illegal_reward", "retired_seats"];

/** A setting's schema as one type: its `anyOf` branch that is not null, with "may be null" noted. */
function flattened(schema) {
  const branches = schema.anyOf ?? [schema];
  const value = branches.find((branch) => branch.type !== "null") ?? {};
  return { ...value, nullable: branches.some((branch) => branch.type === "null"), default: schema.default, title: schema.title };
}

function input(type, key) {
  const field = element("input");
  field.type = type;
  field.name = key;
  field.id = `setting-${key}`;
  return field;
}

/** The form control of one setting: a choice for a list of values, a box for yes or no, a number, or text. */
function control(key, schema) {
  if (schema.enum) {
    const choice = element("select");
    choice.name = key;
    choice.id = `setting-${key}`;
    for (const value of schema.enum) choice.append(new Option(value === schema.default ? `${value} (default)` : value, value));
    choice.value = schema.default;
    return choice;
  }
  if (schema.type === "boolean") {
    const box = input("checkbox", key);
    box.checked = schema.default;
    return box;
  }
  if (schema.type === "integer" || schema.type === "number") {
    const number = input("number", key);
    if (schema.minimum !== undefined) number.min = schema.minimum;
    if (schema.maximum !== undefined) number.max = schema.maximum;
    number.step = schema.type === "integer" ? "1" : "any";
    number.value = schema.default ?? "";
    number.placeholder = schema.nullable ? "none" : "";
    return number;
  }
  const text = input("text", key);
  text.placeholder = schema.type === "array" ? "codes separated by spaces; empty for the default" : "";
  text.dataset.list = String(schema.type === "array");
  return text;
}

function rangeText(schema) {
  if (schema.minimum === undefined && schema.maximum === undefined) return "";
  return ` (${schema.minimum ?? "…"}–${schema.maximum ?? "…"})`;
}

/** Draw the form of `game`'s settings into the lobby. */
export function drawSettings(game) {
  const box = document.getElementById("settings");
  box.replaceChildren();
  const properties = game.settings_schema.properties;
  for (const [key, raw] of Object.entries(properties)) {
    const schema = flattened(raw);
    if (NOT_ASKED.includes(key) || schema.const !== undefined) continue;
    const label = element("label", schema.type === "boolean" ? "setting boolean" : "setting");
    const field = control(key, schema);
    const title = `${key.replaceAll("_", " ")}${rangeText(schema)}`;
    if (schema.type === "boolean") label.append(field, ` ${title}`);
    else label.append(element("span", "", title), field);
    box.append(label);
  }
  if (!box.children.length) box.append(element("p", "none", `${game.name} has no setting to choose but the players.`));
}

/** The settings the form gives, each as the config takes it; an empty box keeps its setting's default. */
export function chosenSettings(game) {
  const settings = {};
  for (const field of document.querySelectorAll("#settings [name]")) {
    const schema = flattened(game.settings_schema.properties[field.name]);
    if (field.type === "checkbox") settings[field.name] = field.checked;
    else if (field.value === "") {
      if (schema.nullable) settings[field.name] = null;
    } else if (field.type === "number") settings[field.name] = Number(field.value);
    else if (field.dataset.list === "true") settings[field.name] = field.value.split(/[\s,]+/).filter(Boolean);
    else settings[field.name] = field.value;
  }
  return settings;
}
