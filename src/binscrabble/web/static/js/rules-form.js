// The house-rules controls: a preset plus every switch of /api/meta, each with its sentence.

import { listItem, t } from "./i18n.js";

const PRESET_SENTENCES = {
  learning: t("For learning: every identity rule is on, chains of them too (1+1=10+0×1). Only these rules give hints: the highest-scoring play, explained."),
  standard: t("The usual rules: ×1, +0 and AND 1 style identities allowed once in an equation. No hints (they come with the Learning rules)."),
  expert: t("For experts: no identity fragments such as ×1 or +0 are allowed. No hints (they come with the Learning rules)."),
};

// The names of the presets, house rules and their choices as people read them: the terms of
// the printed rules card (print/catalogues; tests/test_shared_terms.py checks they agree).
const PRESET_NAMES = { learning: t("learning"), standard: t("standard"), expert: t("expert") };
const RULE_NAMES = {
  precedence: t("Order of operations"),
  identity_times_one: t("Times 1 and divided by 1 allowed"),
  identity_plus_minus_zero: t("Plus 0 and minus 0 allowed"),
  identity_and_one_or_zero: t("AND 1, OR 0 and XOR 0 allowed"),
  identity_chains: t("Several of ×1, +0, AND 1 in one equation"),
  allow_negatives: t("Results below zero allowed"),
  leading_zeros: t("Numbers may start with 0"),
  parallel_numbers: t("Plain numbers beside a run"),
  rotated_equals: t("An = turned to read 11"),
  xor_tiles: t("XOR tiles added to the bag"),
  rack_size: t("Tiles on a rack"),
  bingo_bonus: t("Bonus for playing a whole rack"),
};
const CHOICE_NAMES = { standard: t("standard order"), "left-to-right": t("left to right") };

const named = (names, code) => (Object.hasOwn(names, code) ? names[code] : code.replaceAll("_", " "));

function control(entry) {
  if (entry.type === "bool") {
    const input = document.createElement("input");
    input.type = "checkbox";
    return input;
  }
  if (entry.type === "choice") {
    const select = document.createElement("select");
    for (const choice of entry.choices || []) {
      const option = document.createElement("option");
      option.value = String(choice);
      option.textContent = listItem(CHOICE_NAMES[choice] || String(choice));
      select.append(option);
    }
    return select;
  }
  const input = document.createElement("input");
  input.type = "number";
  if (entry.min !== undefined) input.min = String(entry.min);
  if (entry.max !== undefined) input.max = String(entry.max);
  return input;
}

function readControl(entry, input) {
  if (entry.type === "bool") return input.checked;
  if (entry.type === "int") return Number(input.value);
  return input.value;
}

function writeControl(entry, input, value) {
  if (entry.type === "bool") input.checked = Boolean(value);
  else input.value = String(value);
}

export function rulesForm(meta, { preset, description, switches }) {
  const controls = new Map();
  const presetNames = Object.keys(meta.presets || {});
  for (const name of presetNames) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = listItem(named(PRESET_NAMES, name));
    preset.append(option);
  }
  preset.value = presetNames.includes("standard") ? "standard" : presetNames[0];
  for (const entry of meta.switches || []) {
    const row = document.createElement("div");
    row.className = "switch";
    const label = document.createElement("label");
    const input = control(entry);
    input.name = `rule-${entry.name}`;
    const id = `rule-${entry.name}`;
    input.id = id;
    const explanationId = `${id}-why`;
    input.setAttribute("aria-describedby", explanationId);
    label.htmlFor = id;
    label.textContent = named(RULE_NAMES, entry.name);
    const explanation = document.createElement("p");
    explanation.className = "hint";
    explanation.id = explanationId;
    explanation.textContent = entry.explanation || "";
    if (entry.type === "bool") row.append(input, " ", label, explanation);
    else row.append(label, " ", input, explanation);
    switches.append(row);
    controls.set(entry.name, { entry, input });
  }
  const presetValues = () => ({ ...(meta.presets[preset.value] || {}) });
  const applyPreset = () => {
    const values = presetValues();
    for (const { entry, input } of controls.values()) {
      writeControl(entry, input, Object.hasOwn(values, entry.name) ? values[entry.name] : entry.default);
    }
    description.textContent = PRESET_SENTENCES[preset.value] || "";
  };
  preset.addEventListener("change", applyPreset);
  applyPreset();
  // Once a switch differs from the preset, the game is the preset with those changes.
  switches.addEventListener("change", () => {
    const values = presetValues();
    const changed = [...controls].filter(([name, { entry, input }]) => {
      const base = Object.hasOwn(values, name) ? values[name] : entry.default;
      return String(readControl(entry, input)) !== String(base);
    });
    const names = changed.map(([name]) => named(RULE_NAMES, name)).join(", ");
    const custom = { preset: named(PRESET_NAMES, preset.value), names };
    description.textContent = changed.length
      ? t("Custom rules: the {preset} preset with {names} changed. Choosing a preset again resets the switches.", custom)
      : PRESET_SENTENCES[preset.value] || "";
  });
  return {
    // The preset, plus each switch that differs from it.
    value() {
      const values = presetValues();
      const rules = { preset: preset.value };
      for (const [name, { entry, input }] of controls) {
        const base = Object.hasOwn(values, name) ? values[name] : entry.default;
        const chosen = readControl(entry, input);
        if (String(chosen) !== String(base)) rules[name] = chosen;
      }
      return rules;
    },
  };
}
