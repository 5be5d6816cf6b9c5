// A finished deal replayed: as dealt, before the play, then trick by trick, every hand as it
// was (what each held, bought, discarded; the шлейф card), the cards of each trick marked.
// The server gives it only to the table's players and only for a deal that is over, each card
// face up only where the player saw it at the table: the others only counted, drawn face down.
import { cardBack, shownCard } from "./cards.js";
import { cardLabel, seatName, setContext, t, tx } from "./i18n.js";
import { el } from "./dom.js";

let dialog = null;
let replay = null;
let step = 0;
let restore = null;

function ensureDialog() {
  if (dialog) return dialog;
  dialog = el("dialog", "replay");
  dialog.id = "replay";
  dialog.setAttribute("aria-labelledby", "replay-title");
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "ArrowRight") go(step + 1);
  });
  dialog.addEventListener("close", () => {
    replay = null;
    if (restore) restore();
  });
  document.body.append(dialog);
  return dialog;
}

function seatBlock(seat, current) {
  const box = el("section", "replay-seat");
  const head = el("div", "head");
  const name = el("span", "name", seat.name);
  if (seat.dealer) name.append(" ", el("span", "dealer", t("web.seat.dealer")));
  head.append(name);
  const tricks = seat.tricks == null || seat.tricks_in_note ? "" : t("n.tricks", {}, seat.tricks);
  const line = [tricks, tx(seat.role), tx(seat.note)].filter(Boolean).join(" \u00b7 ");
  if (line) head.append(el("span", "line", line));
  box.append(head);
  const played = new Set(current.trick.filter((item) => item.seat === seat.seat).map((item) => item.card));
  const hand = el("div", "replay-hand");
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("web.replay.hand", { name: seat.name }));
  for (const card of seat.hand) {
    const face = shownCard(card, "tiny");
    if (played.has(card)) {
      face.classList.add("in-trick");
      face.setAttribute("aria-label", t("web.replay.played", { card: cardLabel(card) }));
    }
    hand.append(face);
  }
  if (seat.hidden) hand.append(faceDown(seat.hidden));
  if (seat.dead) hand.append(el("span", "none", t("web.replay.dead")));
  else if (!seat.hand.length && !seat.hidden) hand.append(el("span", "none", t("web.replay.no_cards")));
  box.append(hand);
  for (const group of seat.private) {
    const row = el("div", "replay-private");
    row.append(el("span", "", `${tx(group.label)}:`));
    for (const card of group.cards) row.append(shownCard(card, "tiny"));
    if (group.hidden) row.append(faceDown(group.hidden));
    box.append(row);
  }
  return box;
}

// The cards a player did not see at the table: as many backs, named by their count.
function faceDown(count) {
  const backs = el("span", "unseen");
  backs.setAttribute("role", "img");
  backs.setAttribute("aria-label", t("web.face_down", {}, count));
  for (let i = 0; i < count; i++) backs.append(cardBack("tiny"));
  return backs;
}

function draw() {
  const current = replay.steps[step];
  setContext({ ranks: replay.ranks, seats: current.seats });
  const title = el("h2", "", t("web.replay.title", { deal: replay.deal + 1 }));
  title.id = "replay-title";
  const where = el("p", "replay-step");
  where.append(el("strong", "", tx(current.label)), ` \u00b7 ${t("web.replay.step", { n: step + 1, of: replay.steps.length })}`);
  where.setAttribute("aria-live", "polite");
  const body = el("div", "replay-body");
  if (current.trump_line) body.append(el("p", "trump", tx(current.trump_line)));
  if (current.trick.length) {
    const row = el("div", "trick-row");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", tx(current.label));
    for (const { seat, card } of current.trick) {
      const item = el("div", "played");
      item.append(shownCard(card, "small"), el("span", "who", seatName(seat)));
      row.append(item);
    }
    body.append(row);
    if (current.winner != null) body.append(el("p", "took", t("web.replay.took", { name: { seat: current.winner } })));
  }
  for (const seat of current.seats) body.append(seatBlock(seat, current));
  const nav = el("div", "replay-nav");
  const prev = el("button", "action secondary", t("web.replay.prev"));
  prev.type = "button";
  prev.id = "replay-prev";
  prev.disabled = step === 0;
  prev.addEventListener("click", () => go(step - 1));
  const next = el("button", "action", t("web.replay.next"));
  next.type = "button";
  next.id = "replay-next";
  next.disabled = step === replay.steps.length - 1;
  next.addEventListener("click", () => go(step + 1));
  const close = el("button", "action secondary", t("web.close"));
  close.type = "button";
  close.id = "replay-close";
  close.addEventListener("click", () => dialog.close());
  nav.append(prev, next, close);
  dialog.replaceChildren(title, where, body, nav);
}

function go(to) {
  if (!replay || to < 0 || to >= replay.steps.length) return;
  step = to;
  draw();
  const focus = document.getElementById(step === replay.steps.length - 1 ? "replay-prev" : "replay-next");
  focus?.focus();
}

// Open the replay of deal ``deal`` of the page's table (``api.get``); ``after`` draws the
// page again once it closes; ``status`` says why it cannot be shown.
export async function openReplay(api, deal, ranks, after, status) {
  let answer;
  try {
    answer = (await api.get("replay", { deal })).body;
  } catch {
    status(t("web.replay.unavailable"));
    return;
  }
  replay = { ...answer, ranks };
  step = 0;
  restore = after;
  const box = ensureDialog();
  draw();
  if (!box.open) box.showModal();
  document.getElementById("replay-next")?.focus();
}

export function replayOpen() {
  return Boolean(dialog?.open);
}

export function closeReplay() {
  if (dialog?.open) dialog.close();
}
