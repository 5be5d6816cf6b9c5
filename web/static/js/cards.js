// Card faces drawn by the page: the corner index and a big pip, suits in the chat's colours.
import { cardLabel, rankLabel } from "./i18n.js";

const GLYPH = { S: "\u2660\uFE0E", H: "\u2665\uFE0E", D: "\u2666\uFE0E", C: "\u2663\uFE0E" };
export const RED = new Set(["H", "D"]);

export function suitGlyph(suit) {
  return GLYPH[suit];
}

// A card face inside `element` (a <button> or a <div>); its accessible name is the chat's label.
export function drawCard(element, card, size = "") {
  element.classList.add("card");
  if (size) element.classList.add(size);
  if (RED.has(card[1])) element.classList.add("red");
  element.dataset.card = card;
  element.setAttribute("aria-label", cardLabel(card));
  const index = document.createElement("span");
  index.className = "idx";
  index.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.textContent = rankLabel(card[0]);
  const suit = document.createElement("span");
  suit.className = "s";
  suit.textContent = GLYPH[card[1]];
  index.append(rank, suit);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = GLYPH[card[1]];
  element.append(index, pip);
  return element;
}

// A card that is only shown (on the cloth, in a dialog): an image to assistive technology.
export function shownCard(card, size = "small") {
  const element = document.createElement("div");
  element.setAttribute("role", "img");
  return drawCard(element, card, size);
}

export function cardBack(size = "small") {
  const element = document.createElement("div");
  element.className = `card back ${size}`;
  element.setAttribute("aria-hidden", "true");
  return element;
}
