"""The golden transcripts in docs/transcripts/ are what the bot renders now: a change of any
text, button or message the players see fails here until the files are regenerated with
``python -m scripts.transcripts`` (and read)."""

from __future__ import annotations

import difflib

from scripts.transcripts import OUT, render_all


async def test_the_golden_transcripts_are_up_to_date() -> None:
    files = await render_all()
    assert len(files) == 10
    for name, text in files.items():
        path = OUT / name
        assert path.exists(), f"{name} is missing: run python -m scripts.transcripts"
        stored = path.read_text(encoding="utf-8")
        if stored != text:
            diff = "\n".join(
                list(
                    difflib.unified_diff(
                        stored.splitlines(), text.splitlines(), "stored", "rendered", lineterm=""
                    )
                )[:40]
            )
            raise AssertionError(
                f"{name} differs from the bot's rendering: run python -m scripts.transcripts\n"
                + diff
            )
