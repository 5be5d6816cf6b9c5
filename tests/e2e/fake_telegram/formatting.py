"""Parse-mode handling: turn ``text`` + ``parse_mode`` into plain text and message entities.

Telegram parses formatted text on its side and rejects text it cannot parse with
``400 Bad Request: can't parse entities: ...``; a bot that puts an unescaped user name into HTML
or an unescaped ``.`` into MarkdownV2 fails exactly there. The parsers here follow the rules of
https://core.telegram.org/bots/api#formatting-options closely enough to catch those mistakes and
to compare edited messages the way Telegram does (by resulting text and entities, not by source).

Offsets and lengths of entities count UTF-16 code units, as in the Bot API.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import CANT_PARSE_ENTITIES, ApiError, bad_request

Entity = dict[str, Any]


def utf16_length(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Bot API offsets and limits."""
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8"))


def parse_error(detail: str) -> ApiError:
    """The 400 error Telegram sends for text it cannot parse."""
    return bad_request(CANT_PARSE_ENTITIES.format(detail=detail))


@dataclass
class _Builder:
    """Accumulates plain text and entities; offsets are kept in UTF-16 units."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    entities: list[Entity] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += utf16_length(text)

    def close(self, entity_type: str, start: int, **extra: Any) -> None:
        if self.length > start:
            self.entities.append(
                {"type": entity_type, "offset": start, "length": self.length - start, **extra}
            )

    def result(self) -> tuple[str, list[Entity]]:
        ordered = sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.parts), ordered


# --- HTML -----------------------------------------------------------------------------------

_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}
#: a date-time entity's format (Bot API "Date-time entity formatting")
_DATE_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^<>]*?)?)\s*>")
_ATTRIBUTE = re.compile(r"""([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|lt|gt|amp|quot);")


def _parse_html(source: str) -> tuple[str, list[Entity]]:
    out = _Builder()
    # Each open tag: (name, start offset, entity type, extra entity fields).
    stack: list[tuple[str, int, str, dict[str, Any]]] = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "&":
            match = _ENTITY.match(source, index)
            if match:
                out.add(html.unescape(match.group(0)))
                index = match.end()
            else:  # Telegram keeps an ampersand that starts no known entity as text.
                out.add(char)
                index += 1
            continue
        if char != "<":
            next_special = min(
                (p for p in (source.find("<", index), source.find("&", index)) if p != -1),
                default=len(source),
            )
            out.add(source[index:next_special])
            index = next_special
            continue
        match = _TAG.match(source, index)
        offset = _byte_offset(source, index)
        if not match:
            raise parse_error(f"Unsupported start tag at byte offset {offset}")
        closing, name, attributes = match.group(1) == "/", match.group(2).lower(), match.group(3)
        if name not in _HTML_TAGS:
            raise parse_error(f'Unsupported start tag "{name}" at byte offset {offset}')
        if closing:
            if not stack:
                raise parse_error(f"Unexpected end tag at byte offset {offset}")
            open_name, start, entity_type, extra = stack.pop()
            if open_name != name:
                raise parse_error(
                    f'Unmatched end tag at byte offset {offset}, expected "</{open_name}>", '
                    f'found "</{name}>"'
                )
            out.close(entity_type, start, **extra)
        else:
            attrs = {
                m.group(1).lower(): html.unescape(m.group(2) or m.group(3) or m.group(4) or "")
                for m in _ATTRIBUTE.finditer(attributes)
            }
            entity_type, extra = _html_entity(name, attrs, offset, stack)
            stack.append((name, out.length, entity_type, extra))
        index = match.end()
    if stack:
        raise parse_error(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    return out.result()


def _html_entity(
    name: str,
    attrs: dict[str, str],
    offset: int,
    stack: list[tuple[str, int, str, dict[str, Any]]],
) -> tuple[str, dict[str, Any]]:
    entity_type = _HTML_TAGS[name]
    if name == "span" and attrs.get("class") != "tg-spoiler":
        raise parse_error(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
    if name == "a":
        if "href" not in attrs:
            raise parse_error(f'Tag "a" must have attribute "href" at byte offset {offset}')
        return entity_type, {"url": attrs["href"]}
    if name == "tg-emoji":
        return entity_type, {"custom_emoji_id": attrs.get("emoji-id", "")}
    if name == "tg-time":
        unix, form = attrs.get("unix", ""), attrs.get("format", "")
        if not unix.isdigit():
            raise parse_error(f'Tag "tg-time" must have attribute "unix" at byte offset {offset}')
        if not _DATE_TIME_FORMAT.fullmatch(form):
            raise parse_error(f'Invalid date-time format "{form}" at byte offset {offset}')
        extra: dict[str, Any] = {"unix_time": int(unix)}
        if form:
            extra["date_time_format"] = form
        return entity_type, extra
    if name == "blockquote" and "expandable" in attrs:
        return "expandable_blockquote", {}
    if name == "code" and stack and stack[-1][0] == "pre" and "class" in attrs:
        # <pre><code class="language-python"> sets the language of the enclosing pre.
        stack[-1][3]["language"] = attrs["class"].removeprefix("language-")
    return entity_type, {}


# --- MarkdownV2 -----------------------------------------------------------------------------

_MARKDOWN_V2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MARKDOWN_V2_TOGGLES = {
    "*": "bold",
    "_": "italic",
    "__": "underline",
    "~": "strikethrough",
    "||": "spoiler",
}


def _parse_markdown_v2(source: str) -> tuple[str, list[Entity]]:
    out = _Builder()
    stack: list[tuple[str, int, int]] = []  # (marker, start offset, source index)
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\" and index + 1 < len(source):
            out.add(source[index + 1])
            index += 2
            continue
        if char == "`":
            index = _markdown_v2_code(source, index, out)
            continue
        marker = source[index : index + 2] if source[index : index + 2] in ("__", "||") else char
        if marker in _MARKDOWN_V2_TOGGLES:
            if stack and stack[-1][0] == marker:
                _, start, _ = stack.pop()
                out.close(_MARKDOWN_V2_TOGGLES[marker], start)
            elif any(open_marker == marker for open_marker, _, _ in stack):
                raise parse_error(
                    f"Can't find end of {_MARKDOWN_V2_TOGGLES[stack[-1][0]].title()} entity at "
                    f"byte offset {_byte_offset(source, stack[-1][2])}"
                )
            else:
                stack.append((marker, out.length, index))
            index += len(marker)
            continue
        if char == "[":
            stack.append(("[", out.length, index))
            index += 1
            continue
        if char == "]" and stack and stack[-1][0] == "[":
            _, start, _ = stack.pop()
            if source[index + 1 : index + 2] != "(":
                raise parse_error(
                    "Character ']' is reserved and must be escaped with the preceding '\\'"
                )
            end = index + 2
            url: list[str] = []
            while end < len(source) and source[end] != ")":
                if source[end] == "\\" and end + 1 < len(source):
                    end += 1
                url.append(source[end])
                end += 1
            if end >= len(source):
                raise parse_error(
                    f"Can't find end of a URL at byte offset {_byte_offset(source, index + 1)}"
                )
            out.close("text_link", start, url="".join(url))
            index = end + 1
            continue
        if char == ">" and (index == 0 or source[index - 1] == "\n"):
            line_end = source.find("\n", index)
            line_end = len(source) if line_end == -1 else line_end
            start = out.length
            inner_text, inner_entities = _parse_markdown_v2(source[index + 1 : line_end])
            for entity in inner_entities:
                out.entities.append({**entity, "offset": entity["offset"] + start})
            out.add(inner_text)
            out.close("blockquote", start)
            index = line_end
            continue
        if char in _MARKDOWN_V2_RESERVED:
            raise parse_error(
                f"Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )
        out.add(char)
        index += 1
    if stack:
        marker, _, at = stack[-1]
        name = "TextUrl" if marker == "[" else _MARKDOWN_V2_TOGGLES[marker].title()
        raise parse_error(
            f"Can't find end of {name} entity at byte offset {_byte_offset(source, at)}"
        )
    return out.result()


def _markdown_v2_code(source: str, index: int, out: _Builder) -> int:
    """Parse inline code or a pre block starting at ``index``; return the index after it."""
    fence = "```" if source.startswith("```", index) else "`"
    body_start = index + len(fence)
    language: str | None = None
    if fence == "```":
        newline = source.find("\n", body_start)
        closing = source.find("```", body_start)
        if newline != -1 and (closing == -1 or newline < closing):
            language = source[body_start:newline].strip() or None
            body_start = newline + 1
    position = body_start
    text: list[str] = []
    while position < len(source):
        if source[position] == "\\" and position + 1 < len(source):
            text.append(source[position + 1])
            position += 2
            continue
        if source.startswith(fence, position):
            start = out.length
            out.add("".join(text))
            if fence == "`":
                out.close("code", start)
            else:
                out.close("pre", start, **({"language": language} if language else {}))
            return position + len(fence)
        text.append(source[position])
        position += 1
    name = "Code" if fence == "`" else "Pre"
    raise parse_error(
        f"Can't find end of {name} entity at byte offset {_byte_offset(source, index)}"
    )


# --- legacy Markdown ------------------------------------------------------------------------

_MARKDOWN_TOGGLES = {"*": "bold", "_": "italic"}


def _parse_markdown(source: str) -> tuple[str, list[Entity]]:
    out = _Builder()
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\" and source[index + 1 : index + 2] in ("_", "*", "`", "["):
            out.add(source[index + 1])
            index += 2
            continue
        unclosed = parse_error(
            f"Can't find end of the entity starting at byte offset {_byte_offset(source, index)}"
        )
        if char in _MARKDOWN_TOGGLES or char == "`":
            fence = "```" if source.startswith("```", index) else char
            end = source.find(fence, index + len(fence))
            if end == -1:
                raise unclosed
            start = out.length
            out.add(source[index + len(fence) : end])
            entity_type = {"```": "pre", "`": "code"}.get(fence) or _MARKDOWN_TOGGLES[char]
            out.close(entity_type, start)
            index = end + len(fence)
            continue
        if char == "[":
            match = re.compile(r"\[([^\]]*)\]\(([^)]*)\)").match(source, index)
            if not match:
                raise unclosed
            start = out.length
            out.add(match.group(1))
            out.close("text_link", start, url=match.group(2))
            index = match.end()
            continue
        out.add(char)
        index += 1
    return out.result()


def parse_text(source: str, parse_mode: str | None) -> tuple[str, list[Entity]]:
    """Plain text and entities of ``source`` as Telegram would parse it with ``parse_mode``.

    Raises the 400 ``can't parse entities`` :class:`ApiError` for text Telegram rejects, and
    for an unknown parse mode.
    """
    if parse_mode is None or parse_mode == "":
        return source, []
    mode = parse_mode.lower()
    if mode == "html":
        return _parse_html(source)
    if mode == "markdownv2":
        return _parse_markdown_v2(source)
    if mode == "markdown":
        return _parse_markdown(source)
    raise bad_request(f"Bad Request: unsupported parse_mode {parse_mode!r}")
