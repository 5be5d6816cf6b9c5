// The controls: every move that is not one card — the view's actions, each a button named as
// the chat's keyboard names it (or a suit) — and a choice of cards, confirmed by Telegram's
// MainButton (or a button of the page where the page runs outside Telegram).
import { suitGlyph, RED } from "./cards.js";
import { t, tx } from "./i18n.js";
import { secondsLeft } from "./table.js";

const $ = (id) => document.getElementById(id);

// One move of the view's actions, drawn as the view describes it (web/views.py, "Moves"): a
// button with its label, or a suit's glyph named by its label; a secondary one drawn quieter.
// Nothing here knows a game's verbs: the button posts the verb and argument it was given.
export function actionButton(action, act) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "action";
  button.dataset.verb = action.verb;
  const label = tx(action.label);
  button.textContent = label;
  if (action.input === "suit") {
    button.classList.add("suit");
    if (RED.has(action.arg)) button.classList.add("red");
    button.textContent = suitGlyph(action.arg);
    button.setAttribute("aria-label", label);
  }
  if (action.secondary) button.classList.add("secondary");
  button.addEventListener("click", () => act(action.verb, action.arg));
  return button;
}

// «Купить 2», «Оставить все»; «Отмечено: 2 из 4» while fewer are marked than the move takes.
export function confirmText(view, count) {
  const pick = view.pick;
  if (count === 0 && pick.none) return tx(pick.none);
  if (count < pick.min) return t("btn.marked", { n: count, of: pick.min });
  return t(pick.confirm.key, { n: count });
}

export function canConfirm(view, count) {
  return Boolean(view.pick) && count >= view.pick.min && count <= view.pick.max;
}

export function renderControls(view, selection, handlers, native) {
  const prompt = $("prompt");
  prompt.replaceChildren(tx(view.prompt));
  if (view.to_act != null && view.to_act !== view.you && !view.prompt) {
    prompt.textContent = t("web.turn", { name: { seat: view.to_act } });
  }
  if (secondsLeft(view) != null) {
    const clock = document.createElement("span");
    clock.className = "clock";
    prompt.append(clock);
  }
  const box = $("controls");
  box.replaceChildren();
  box.setAttribute("aria-label", tx(view.prompt) || t("web.hand"));
  for (const action of view.actions) box.append(actionButton(action, handlers.act));
  if (view.pick && !native) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.id = "confirm";
    button.textContent = confirmText(view, selection.size);
    button.disabled = !canConfirm(view, selection.size);
    button.addEventListener("click", () => handlers.confirm());
    box.append(button);
  }
}

// A finished deal's nets, on the table that shows its end (the score card, scorecard.js, says
// them in its place while it is shown).
export function renderResult(view) {
  const old = document.getElementById("result");
  if (old) old.remove();
  const result = view.result;
  if (!result) return;
  const box = document.createElement("section");
  box.id = "result";
  box.className = "result";
  const title = document.createElement("h2");
  title.textContent = tx(result.label);
  box.append(title);
  if (result.nets) {
    const nets = document.createElement("div");
    nets.className = "nets";
    result.nets.forEach((net, seat) => {
      const name = document.createElement("span");
      name.textContent = view.seats[seat].name;
      // the chat's breakdown: «ставка −3 · ремиз −12», where the view gives one (it gives
      // none where it would say no more than the net)
      const parts = result.parts?.[seat] ?? [];
      if (parts.length) {
        const why = document.createElement("span");
        why.className = "parts";
        why.textContent = ` (${parts.map(tx).join(" \u00b7 ")})`;
        name.append(why);
      }
      const amount = document.createElement("span");
      amount.className = net == null ? "zero" : net > 0 ? "plus" : net < 0 ? "minus" : "zero";
      amount.textContent = net == null ? "\u2014" : net > 0 ? `+${net}` : net < 0 ? `\u2212${-net}` : "0";
      nets.append(name, amount);
    });
    box.append(nets);
  }
  for (const note of result.notes ?? []) {
    const line = document.createElement("p");
    line.className = "note";
    line.textContent = tx(note);
    box.append(line);
  }
  $("controls").after(box);
}
