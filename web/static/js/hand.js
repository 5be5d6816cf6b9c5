// Your hand: real card faces, bright. At your turn to play (or pass) a card the legal ones are
// raised and only the others dimmed; at any other time no card is tapped and none is dimmed.
// In a choice of several cards (the purchase's discards, Старшина's kitty) each card toggles.
// Up to eight cards lie in one row; more (Старшина's sixteen) in two lines of overlapping fans,
// one a suit (fan.js), that fit a phone's screen with the table above them.
import { cardBack, drawCard, shownCard } from "./cards.js";
import { layoutFans, suitLines } from "./fan.js";
import { t, tx } from "./i18n.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);

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

// Many cards lie as fans by suit (fan.js); a few in one row of whole cards.
export const layoutRows = layoutFans;

// The cards only this seat has seen; once the view says they are past business (the play has
// begun) and the hand is many cards (Старшина's sixteen), folded into one line that a tap opens.
let privateOpen = false;

function renderPrivate(view, many) {
  const privateBox = $("private");
  privateBox.replaceChildren();
  let box = privateBox;
  if (many && view.play_begun && view.private.length) {
    const fold = el("details", "fold");
    fold.open = privateOpen;
    fold.addEventListener("toggle", () => {
      privateOpen = fold.open;
    });
    const cards = view.private.reduce((sum, item) => sum + item.cards.length, 0);
    fold.append(el("summary", "", t("web.private.folded", {}, cards)));
    privateBox.append(fold);
    box = fold;
  }
  for (const item of view.private) {
    const group = el("div", "group");
    group.append(el("span", "", `${tx(item.label)}:`));
    for (const card of item.cards) group.append(shownCard(card, "tiny"));
    box.append(group);
  }
}

export function renderHand(view, selection, handlers) {
  const hand = $("hand");
  $("hand-title").textContent = t("web.hand");
  const cards = view.hand.cards;
  const many = cards.length > 8;
  hand.classList.toggle("rows", many);
  hand.classList.toggle("big", !many);
  $("app").classList.toggle("many", many); // (a table drawn smaller, to leave the hand room)
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
  for (const suits of many ? suitLines(cards) : [[cards]]) {
    const line = el("div", many ? "row fan" : "row wide");
    line.setAttribute("role", "group");
    suits.forEach((suit, group) => {
      for (const item of suit) {
        const button = cardButton(item, view, selection, handlers, choosing);
        button.dataset.group = group;
        line.append(button);
      }
    });
    box.append(line);
  }
  renderPrivate(view, many);
  requestAnimationFrame(layoutRows);
  layoutRows();
}
