// A hand of many cards (Старшина's sixteen) on a phone: each suit an overlapping fan, the
// suits laid in two lines of about as many cards each, a gap between two suits of a line. Every
// card shows its corner and a slice wide enough to tap; the whole hand takes two card heights,
// so it fits a 360×740 screen together with the table and the trick.

// how much of a card the next one leaves in view at most (of its width), and the gap between
// two suits of a line (px)
const MOST_SHOWN = 0.72;
const SUIT_GAP = 12;

// The hand in display order (trumps first, then ♠ ♥ ♣ ♦), as lines of suits: two lines, cut
// between two suits where the longer of them is the shortest (one suit alone: one line).
export function suitLines(cards) {
  const suits = [];
  for (const item of cards) {
    const last = suits[suits.length - 1];
    if (last && last[0].card[1] === item.card[1]) last.push(item);
    else suits.push([item]);
  }
  if (suits.length < 2) return [suits];
  let best = 1;
  let longest = Infinity;
  for (let cut = 1; cut < suits.length; cut++) {
    const first = suits.slice(0, cut).reduce((sum, suit) => sum + suit.length, 0);
    const longer = Math.max(first, cards.length - first);
    if (longer < longest) [best, longest] = [cut, longer];
  }
  return [suits.slice(0, best), suits.slice(best)];
}

// Place each line's cards: as far apart as the width allows, no more than MOST_SHOWN of a card
// in view, centred. A card's suit in its line is its data-group.
export function layoutFans() {
  for (const line of document.querySelectorAll("#cards .row.fan")) {
    const cards = [...line.children];
    if (!cards.length) continue;
    const width = line.clientWidth;
    const card = parseFloat(getComputedStyle(line).getPropertyValue("--card-w")) || 54;
    const gaps = Number(cards[cards.length - 1].dataset.group) * SUIT_GAP;
    const count = cards.length;
    const step = count > 1 ? Math.min(card * MOST_SHOWN, (width - card - gaps) / (count - 1)) : 0;
    const used = card + step * (count - 1) + gaps;
    const offset = Math.max(0, (width - used) / 2);
    cards.forEach((node, index) => {
      node.style.left = `${offset + index * step + Number(node.dataset.group) * SUIT_GAP}px`;
    });
  }
}
