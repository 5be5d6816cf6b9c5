// The table: the bar (game, deal, pot, trump), the seats with the turn's countdown, the trick
// on the cloth, the last trick a tap away, and a sentence for screen readers.
import { cardBack, shownCard, suitGlyph, RED } from "./cards.js";
import { cardLabel, seatName, suitSymbol, t, tx } from "./i18n.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
let clock = { offset: 0, turn: "", full: 0 };

export function setServerTime(serverSeconds) {
  clock.offset = serverSeconds - Date.now() / 1000;
}

// Seconds left for the turn, or null: from the deadline, so a page that slept shows the truth.
export function secondsLeft(view) {
  if (view.deadline == null || view.to_act == null) return null;
  return Math.max(0, Math.round(view.deadline - (Date.now() / 1000 + clock.offset)));
}

function renderBar(view) {
  const bar = $("bar");
  bar.replaceChildren();
  bar.append(el("span", "title", t(`game.${view.choice}`)));
  if (view.pot_gloss) {
    // «ремиз» explained as the chat's gloss does, a tap away
    const pot = el("button", "pill gloss-toggle", tx(view.pot));
    pot.type = "button";
    pot.id = "pot";
    pot.title = tx(view.pot_gloss);
    pot.setAttribute("aria-expanded", String(glossOpen));
    pot.setAttribute("aria-controls", "gloss");
    pot.addEventListener("click", () => {
      glossOpen = !glossOpen;
      renderGloss(view);
      pot.setAttribute("aria-expanded", String(glossOpen));
    });
    bar.append(pot);
  } else if (view.pot) {
    bar.append(el("span", "pill", tx(view.pot)));
  }
  renderGloss(view);
  if (view.phase === "lobby") return; // nothing dealt: no trump yet
  const trump = el("span", "pill trump");
  const suit = el("span", "suit");
  if (view.trump) {
    suit.textContent = suitGlyph(view.trump);
    suit.style.color = RED.has(view.trump) ? "var(--red)" : "inherit";
    trump.setAttribute("aria-label", `${t("web.trump")}: ${suitSymbol(view.trump)}`);
  }
  // Стуколка: the trump as the chat says it («Козырь: 6♠️ — открыт на колоде»)
  if (view.trump_line) {
    trump.append(tx(view.trump_line));
    trump.classList.add("line");
    trump.removeAttribute("aria-label");
  } else if (view.trump) trump.append(`${t("web.trump")} `, suit);
  else trump.append(t("web.no_trump"));
  bar.append(trump);
}

let glossOpen = false;

function renderGloss(view) {
  let box = $("gloss");
  if (!box) {
    box = el("p", "gloss");
    box.id = "gloss";
    $("bar").after(box);
  }
  box.textContent = view.pot_gloss ? tx(view.pot_gloss) : "";
  box.hidden = !(view.pot_gloss && glossOpen);
}

function seatLines(seat, view) {
  const chips = seat.chips == null ? "" : t("web.chips", {}, seat.chips);
  // tricks once the play has begun; a seat's note may say them already (Старшина's «2
  // взятки, нужно 5»)
  const tricks = seat.tricks == null || seat.tricks_in_note ? "" : t("n.tricks", {}, seat.tricks);
  const more = [tricks, tx(seat.role), tx(seat.note), seat.away ? t("seat.away_mark") : ""];
  return [chips, more.filter(Boolean).join(" · ")];
}

function renderSeat(seat, view) {
  const box = el("div", "seat");
  box.dataset.seat = seat.seat;
  if (seat.to_act) box.classList.add("to-act");
  if (seat.you) box.classList.add("you");
  // the name shrinks to an ellipsis only on a line of its own: the dealer's badge wraps
  // below it rather than being cut off
  const name = el("div", "name");
  name.append(el("span", "who", seat.name));
  if (seat.you) name.append(el("span", "sr-only", ` (${t("web.seat.you")})`));
  if (seat.dealer) name.append(el("span", "dealer", t("web.seat.dealer")));
  const [chips, more] = seatLines(seat, view);
  box.append(name, el("div", "line", chips || "\u00a0"), el("div", "line role", more || "\u00a0"));
  if (!seat.you) {
    const backs = el("div", "backs");
    if (seat.cards) {
      backs.setAttribute("aria-label", t("web.seat.cards", {}, seat.cards));
      backs.setAttribute("role", "img");
    }
    for (let i = 0; i < Math.min(seat.cards, 16); i++) backs.append(el("span", "back-mini"));
    box.append(backs);
  }
  if (seat.to_act) box.append(el("div", "timer"));
  return box;
}

function renderSeats(view) {
  const seats = $("seats");
  seats.replaceChildren();
  const count = view.seats.length;
  // from your left round to your right, as the play passes; your own seat below them (a
  // lobby you do not sit at: every seat in a row)
  const others = [];
  if (view.you == null) others.push(...view.seats);
  else for (let step = 1; step < count; step++) others.push(view.seats[(view.you + step) % count]);
  seats.style.gridTemplateColumns = `repeat(${others.length}, minmax(0, 1fr))`;
  for (const seat of others) seats.append(renderSeat(seat, view));
}

function playedCard(seat, card, size) {
  const box = el("div", "played");
  box.append(shownCard(card, size), el("span", "who", seatName(seat)));
  return box;
}

function renderCloth(view, openLast) {
  const cloth = $("cloth");
  cloth.replaceChildren();
  const middle = el("div", "middle");
  if (view.trick.length) {
    const trick = el("div", "trick");
    trick.setAttribute("aria-label", t("web.trick"));
    trick.setAttribute("role", "group");
    for (const { seat, card } of view.trick) trick.append(playedCard(seat, card, "small"));
    middle.append(trick);
  } else if (!view.result && view.phase !== "lobby") {
    middle.append(el("div", "empty", t("web.trick_empty")));
  }
  const corner = el("div", "corner");
  // the face-up trump card only while it lies on the stock: once bought it is in a hand
  if (view.trump_card && view.trump_card_on_stock) {
    corner.append(shownCard(view.trump_card, "tiny"), el("span", "", t("web.trump_card")));
  } else if (view.stock) {
    corner.append(cardBack("tiny"));
  }
  if (view.stock) {
    corner.append(el("span", "", t(view.stock_label, {}, view.stock)));
  }
  const last = el("button", "last-button", t("web.last_trick"));
  last.type = "button";
  last.id = "last-button";
  last.disabled = !view.last_trick.length;
  last.hidden = view.phase === "lobby";
  last.addEventListener("click", openLast);
  const bottom = el("div", "bottom");
  bottom.append(corner, view.you == null ? el("div") : renderSeat(view.seats[view.you], view), last);
  cloth.append(middle, bottom);
}

export function renderLast(view) {
  $("last-title").textContent =
    view.last_winner == null ? t("web.last_trick") : t("web.last_trick_by", { name: { seat: view.last_winner } });
  const row = $("last-cards");
  row.replaceChildren();
  for (const { seat, card } of view.last_trick) row.append(playedCard(seat, card, ""));
  $("last-close").textContent = t("web.close");
}

function summary(view) {
  const parts = [];
  if (view.to_act != null) {
    parts.push(view.to_act === view.you ? t("web.your_turn") : t("web.turn", { name: { seat: view.to_act } }));
  }
  if (view.trick.length) {
    parts.push(`${t("web.trick")}: ${view.trick.map(({ seat, card }) => `${seatName(seat)} ${cardLabel(card)}`).join(", ")}`);
  }
  if (view.pot) parts.push(tx(view.pot));
  if (view.phase === "lobby") parts.push(tx(view.prompt));
  return parts.join(". ");
}

export function renderTable(view, openLast) {
  $("table-title").textContent = t(`game.${view.choice}`);
  renderBar(view);
  renderSeats(view);
  renderCloth(view, openLast);
  renderLast(view);
  $("summary").textContent = summary(view);
}

// Once a second: the countdown of whoever is to act.
export function tick(view) {
  const left = secondsLeft(view);
  const key = `${view.version}:${view.to_act}`;
  if (left != null && clock.turn !== key) clock = { ...clock, turn: key, full: Math.max(left, 1) };
  for (const box of document.querySelectorAll(".seat.to-act")) {
    const bar = box.querySelector(".timer");
    if (!bar || left == null) continue;
    bar.style.setProperty("--left", String(Math.min(left / clock.full, 1)));
    box.classList.toggle("hurry", left <= 10);
  }
  const counter = document.querySelector("#prompt .clock");
  if (counter) counter.textContent = left == null ? "" : t("web.seconds", {}, left);
}
