// Under the hand: the evening so far (each player's money over the chat's evening, and who
// would pay whom if it ended now) and the game's glossary, each a tap away in a dialog.
import { glossaryOf, t } from "./i18n.js";
import { el } from "./dom.js";

const MINUS = "\u2212";
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `${MINUS}${-n}` : "0");

function dialog(id) {
  let box = document.getElementById(id);
  if (!box) {
    box = el("dialog", "last more-dialog");
    box.id = id;
    box.setAttribute("aria-labelledby", `${id}-title`);
    document.body.append(box);
  }
  return box;
}

// redraws the page: Telegram's Back closes an open dialog (main.js), the page's again once shut
let redraw = () => {};

function open(box, title, body) {
  const heading = el("h2", "", title);
  heading.id = `${box.id}-title`;
  const form = el("form");
  form.method = "dialog";
  const close = el("button", "action", t("web.close"));
  close.value = "close";
  form.append(close);
  box.replaceChildren(heading, ...body, form);
  if (!box.open) {
    box.showModal();
    box.addEventListener("close", () => redraw(), { once: true });
  }
  redraw();
}

function rows(items) {
  const list = el("div", "money");
  for (const item of items) {
    list.append(el("span", "", item.name));
    list.append(el("span", item.net > 0 ? "plus" : item.net < 0 ? "minus" : "zero", signed(item.net)));
  }
  return list;
}

// The evening as the server reads it (GET /api/evening).
export function eveningBody(evening) {
  if (!evening.deals) return [el("p", "", t("web.evening.none"))];
  const body = [el("h3", "", t("evening.so_far_nets")), rows(evening.nets)];
  if (evening.in_play.length) {
    const items = evening.in_play.map((item) => `${item.name} ${signed(item.net)}`).join(", ");
    body.push(el("p", "note", t("evening.in_play_so_far", { items })));
  }
  body.push(el("h3", "", t("web.evening.settle_now")));
  if (evening.payments.length) {
    const list = el("ul", "payments");
    for (const pay of evening.payments) list.append(el("li", "", t("evening.pay", pay)));
    body.push(list);
  } else {
    body.push(el("p", "", t(evening.square ? "evening.square" : "evening.no_payments")));
  }
  const chips = (n) => ({ key: "web.chips", n });
  if (evening.pot_share.length) {
    const items = evening.pot_share.map((item) => `${item.name} ${item.amount}`).join(", ");
    body.push(el("p", "note", t("evening.pot_share", { pot: chips(evening.pot), items })));
  } else if (evening.pot > 0) {
    body.push(el("p", "note", t("evening.left_in_pot", { pot: chips(evening.pot) })));
  }
  if (evening.game_pot > 0) body.push(el("p", "note", t("evening.game_pot_left", { pot: chips(evening.game_pot) })));
  if (evening.from_pot) body.push(el("p", "note", t("evening.from_pot", { pot: chips(evening.from_pot) })));
  if (evening.computers.length) {
    const computers = evening.computers.map((item) => `${item.name} ${signed(item.net)}`).join(", ");
    body.push(el("p", "note", t("settle.computers", { computers })));
  }
  return body;
}

export function renderMore(view, readEvening, onDialog) {
  redraw = onDialog;
  let box = document.getElementById("more");
  if (!box) {
    box = el("nav", "more");
    box.id = "more";
    document.getElementById("hand").after(box);
  }
  box.replaceChildren();
  box.setAttribute("aria-label", t("web.title"));
  if (view.phase !== "lobby" && view.evening !== false) {
    const money = el("button", "link-button", t("web.evening.button"));
    money.type = "button";
    money.id = "evening-button";
    money.addEventListener("click", async () => {
      money.disabled = true;
      try {
        const evening = await readEvening();
        open(dialog("evening"), evening.deals ? t("web.evening.title", {}, evening.deals) : t("web.evening.button"), eveningBody(evening));
      } finally {
        money.disabled = false;
      }
    });
    box.append(money);
  }
  const terms = glossaryOf(view.game);
  if (terms.length) {
    const words = el("button", "link-button", t("web.glossary.button"));
    words.type = "button";
    words.id = "glossary-button";
    words.addEventListener("click", () => {
      open(dialog("glossary"), t("web.glossary.title"), terms.map((key) => el("p", "gloss-entry", t(key))));
    });
    box.append(words);
  }
}
