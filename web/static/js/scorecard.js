// The end of a deal: its score card in the table's place — each seat's tricks, role and
// purchase, its chips for the deal broken down as the chat's result says them (all figures
// the server's, from the deal's ledger), the last trick and what follows — until the player
// taps «Дальше» or the next deal's first card is played. At a closed table (its game won,
// or stopped) the card stays, with why it closed and «▶️ Новая партия» among the controls.
import { shownCard } from "./cards.js";
import { seatName, setContext, t, tx } from "./i18n.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
// the deals whose card the player put away («Дальше»), by the page's table
const dismissed = new Set();

function cardKey(view) {
  return `${view.choice}:${view.score.deal}`;
}

// Whether the score card stands in the table's place now.
export function scoreShown(view) {
  if (!view?.score) return false;
  if (view.closed) return true;
  if (dismissed.has(cardKey(view))) return false;
  // the deal it sums up is the one on the table (its end), or the next one has no card played
  if (view.deal === view.score.deal) return true;
  return view.trick.length === 0 && view.last_trick.length === 0;
}

function signed(net) {
  return net > 0 ? `+${net}` : net < 0 ? `\u2212${-net}` : "0";
}

function seatRow(seat) {
  const row = el("li", seat.you ? "score-seat you" : "score-seat");
  const head = el("div", "head");
  const name = el("span", "name", seat.name);
  if (seat.you) name.append(el("span", "sr-only", ` (${t("web.seat.you")})`));
  if (seat.dealer) name.append(" ", el("span", "dealer", t("web.seat.dealer")));
  head.append(name);
  const net = el("span", seat.net == null ? "net zero" : seat.net > 0 ? "net plus" : seat.net < 0 ? "net minus" : "net zero");
  net.textContent = seat.net == null ? "\u2014" : signed(seat.net);
  head.append(net);
  row.append(head);
  const tricks = seat.tricks == null || seat.tricks_in_note ? "" : t("n.tricks", {}, seat.tricks);
  const line = [tricks, tx(seat.role), tx(seat.note)].filter(Boolean).join(" \u00b7 ");
  if (line) row.append(el("div", "line", line));
  if (seat.parts?.length) row.append(el("div", "parts", seat.parts.map(tx).join(" \u00b7 ")));
  return row;
}

// The card of ``view.score`` drawn in ``#score`` (in the table's place), or taken away.
// ``actions``: {replay(deal), next()}.
export function renderScore(view, actions) {
  let box = $("score");
  const shown = scoreShown(view);
  $("table").hidden = shown;
  // a closed table holds nothing to play: no hand under its last result
  $("hand").hidden = Boolean(view.closed);
  if (!shown) {
    if (box) box.remove();
    return;
  }
  // the deal it sums up is over: the result box of the table is the same, said once
  document.getElementById("result")?.remove();
  // drawn once a card: the next deal's moves redraw the page, not the card (nor take the
  // focus off its buttons)
  const drawn = `${cardKey(view)}:${view.closed?.key ?? ""}`;
  if (box?.dataset.drawn === drawn) return;
  if (!box) {
    box = el("section", "score");
    box.id = "score";
    box.setAttribute("aria-labelledby", "score-title");
    $("table").before(box);
  }
  box.dataset.drawn = drawn;
  box.replaceChildren();
  const score = view.score;
  // the seats of that deal, named as they sat (someone may have left since)
  setContext({ ranks: score.ranks, seats: score.seats });
  const title = el("h2", "", tx(score.title));
  title.id = "score-title";
  box.append(title);
  if (view.closed) box.append(el("p", "closed", tx(view.closed)));
  box.append(el("p", "label", tx(score.label)));
  if (score.trump_line) box.append(el("p", "trump", tx(score.trump_line)));
  const seats = el("ul", "score-seats");
  seats.setAttribute("aria-label", t("web.score.money"));
  for (const seat of score.seats) seats.append(seatRow(seat));
  box.append(seats);
  if (score.last_trick.length) {
    const last = el("div", "score-last");
    const heading =
      score.last_winner == null
        ? t("web.last_trick")
        : t("web.score.last_trick", { name: { seat: score.last_winner } });
    last.append(el("h3", "", heading));
    const row = el("div", "trick-row");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", heading);
    for (const { seat, card } of score.last_trick) {
      const played = el("div", "played");
      played.append(shownCard(card, "tiny"), el("span", "who", seatName(seat)));
      row.append(played);
    }
    last.append(row);
    box.append(last);
  }
  for (const note of score.notes) box.append(el("p", "note", tx(note)));
  const buttons = el("div", "score-buttons");
  const replay = el("button", "action secondary", t("web.score.replay"));
  replay.type = "button";
  replay.id = "score-replay";
  replay.addEventListener("click", () => actions.replay(score.deal));
  buttons.append(replay);
  if (!view.closed) {
    const next = el("button", "action", t("web.score.next"));
    next.type = "button";
    next.id = "score-next";
    next.addEventListener("click", () => {
      dismissed.add(cardKey(view));
      actions.next();
    });
    buttons.append(next);
  }
  box.append(buttons);
  setContext(view);
}
