// A table stopping (after /stop, /stop now): the chat's line above the table while its deal is
// played out, the vote to void the deal so far, and this player's buttons — to agree to void
// it, and (its creator, where a large pot waits) to play on.
import { actionButton } from "./controls.js";
import { tx } from "./i18n.js";

export function renderStopping(view, act) {
  let box = document.getElementById("stopping");
  if (!box) {
    box = document.createElement("section");
    box.id = "stopping";
    box.className = "stopping";
    box.setAttribute("aria-live", "polite");
    document.getElementById("table").before(box);
  }
  box.replaceChildren();
  const stopping = view.stopping;
  box.hidden = !stopping;
  if (!stopping) return;
  const line = document.createElement("p");
  line.textContent = tx(stopping.line);
  box.append(line);
  if (stopping.votes) {
    const votes = document.createElement("p");
    votes.className = "votes";
    votes.textContent = tx(stopping.votes);
    box.append(votes);
  }
  if (stopping.actions.length) {
    const row = document.createElement("div");
    row.className = "controls";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", tx(stopping.line));
    for (const action of stopping.actions) row.append(actionButton(action, act));
    box.append(row);
  }
}
