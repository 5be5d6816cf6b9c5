// 💡 at your turn, where the table offers it (the chat's «💡 Подсказка»): the strong computer's
// advice for your seat in the chat's words, each move named as the page's controls name it.
// It stays under the controls until the turn moves on.
import { t, tx } from "./i18n.js";

let said = { version: null, text: "" };

function box() {
  let node = document.getElementById("hint");
  if (!node) {
    node = document.createElement("div");
    node.id = "hint";
    node.className = "hint";
    document.getElementById("controls").after(node);
  }
  return node;
}

// ask(version) answers {hint} or {refused: text}
export function renderHint(view, ask) {
  const node = box();
  node.replaceChildren();
  if (said.version !== view.version) said = { version: view.version, text: "" };
  node.hidden = !view.hint && !said.text;
  if (node.hidden) return;
  if (view.hint && !said.text) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action secondary hint-button";
    button.textContent = t("btn.hint");
    button.addEventListener("click", async () => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      const answer = await ask(view.version);
      if (said.version !== view.version) return; // the turn moved on meanwhile
      said.text = answer.hint ?? t("web.refused", { reason: tx(answer.refused) });
      renderHint(view, ask);
    });
    node.append(button);
  }
  if (said.text) {
    const line = document.createElement("p");
    line.className = "hint-text";
    line.setAttribute("role", "status");
    line.textContent = said.text;
    node.append(line);
  }
}
