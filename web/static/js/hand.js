// Your hand: real card faces, bright. At your turn to play (or pass) a card the legal ones are
// raised and only the others dimmed; at any other time no card is tapped and none is dimmed.
// In a choice of several cards (the purchase's discards, Старшина's kitty) each card toggles.
// Up to eight cards lie in one row; more (Старшина's sixteen) in rows by suit, each row an
// overlapping fan that fits the screen's width.
import { cardBack, drawCard, shownCard } from "./cards.js";
import { t, tx } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function cardButton(item, view, selection, handlers, choosing) {
  const button = drawCard(document.createElement("button"), item.card);
  button.type = "button";
  if (view.pick) {
    button.setAttribute("aria-pressed", String(selection.has(item.card)));
    button.addEventListener("click", () => handlers.toggle(item.card));
  } else if (item.verb) {
    button.classList.add("legal");
    button.addEventListener("click", () => handlers.play(item.verb, item.card));
  } else {
    button.disabled = true;
    if (choosing) button.classList.add("illegal");
  }
  return button;
}

function rowsOf(cards, bySuit) {
  if (!bySuit) return [cards];
  // the hand comes in display order (trumps first, then ♠ ♥ ♣ ♦): one row a suit
  const rows = [];
  for (const item of cards) {
    const last = rows[rows.length - 1];
    if (last && last[0].card[1] === item.card[1]) last.push(item);
    else rows.push([item]);
  }
  return rows;
}

// Spread a row's cards over its width: a step no wider than a card and a gap.
export function layoutRows() {
  for (const row of document.querySelectorAll("#cards .row:not(.wide)")) {
    const cards = row.children.length;
    const style = getComputedStyle(row);
    const width = row.clientWidth;
    const card = parseFloat(style.getPropertyValue("--card-w")) || 50;
    const step = cards > 1 ? Math.min(card + 6, (width - card) / (cards - 1)) : 0;
    const used = step * (cards - 1) + card;
    row.style.setProperty("--step", `${step}px`);
    row.style.setProperty("--offset", `${Math.max(0, (width - used) / 2)}px`);
  }
}

export function renderHand(view, selection, handlers) {
  const hand = $("hand");
  $("hand-title").textContent = t("web.hand");
  const cards = view.hand.cards;
  const many = cards.length > 8;
  hand.classList.toggle("rows", many);
  hand.classList.toggle("big", !many);
  const box = $("cards");
  box.replaceChildren();
  if (view.hand.hidden) {
    const down = el("div", "facedown");
    for (let i = 0; i < Math.min(view.hand.hidden, 5); i++) down.append(cardBack(""));
    down.append(el("span", "", t("web.face_down", {}, view.hand.hidden)));
    box.append(down);
  }
  // your turn to choose one card: the cards you may not choose are dimmed
  const choosing = !view.pick && cards.some((item) => item.verb);
  for (const row of rowsOf(cards, many)) {
    const line = el("div", many ? "row" : "row wide");
    line.setAttribute("role", "group");
    row.forEach((item, index) => {
      const button = cardButton(item, view, selection, handlers, choosing);
      button.style.setProperty("--i", index);
      line.append(button);
    });
    box.append(line);
  }
  const privateBox = $("private");
  privateBox.replaceChildren();
  for (const item of view.private) {
    const group = el("div", "group");
    group.append(el("span", "", `${tx(item.label)}:`));
    for (const card of item.cards) group.append(shownCard(card, "tiny"));
    privateBox.append(group);
  }
  requestAnimationFrame(layoutRows);
  layoutRows();
}
