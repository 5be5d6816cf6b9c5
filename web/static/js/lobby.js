// A table still gathering: its free seats drawn on the cloth as empty chairs, so the lobby
// shows how many more may sit down (the seated players are the table's own seats).
import { t } from "./i18n.js";

export function renderLobby(view) {
  if (view.phase !== "lobby") return;
  const middle = document.querySelector("#cloth .middle");
  if (!middle) return;
  middle.replaceChildren();
  if (!view.free) return;
  const chairs = document.createElement("div");
  chairs.className = "chairs";
  chairs.setAttribute("role", "img");
  chairs.setAttribute("aria-label", t("web.lobby.free", {}, view.free));
  for (let i = 0; i < view.free; i++) {
    const chair = document.createElement("div");
    chair.className = "chair";
    chair.setAttribute("aria-hidden", "true");
    chair.textContent = t("web.lobby.free_seat");
    chairs.append(chair);
  }
  middle.append(chairs);
}
