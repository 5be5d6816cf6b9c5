"""What the messenger asks of the Bot API through a real PTB bot: plain JSON parameters, and
replies it reads no more of than it needs (no PTB ``Message`` built from any of them), with no
warning from PTB; Telegram's errors still reach it as PTB's exceptions."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from telegram import Message
from telegram.ext import ExtBot
from telegram.request import BaseRequest, RequestData

from bot.chat_events import ChatEvents
from bot.messenger import Messenger
from bot.pacing import Pacer

MESSAGE = {
    "message_id": 41,
    "date": 1_700_000_000,
    "chat": {"id": 7, "type": "private", "first_name": "A"},
    "text": "your turn",
    "entities": [{"type": "bold", "offset": 0, "length": 4}],
    "reply_markup": {"inline_keyboard": [[{"text": "Play", "callback_data": "a:1"}]]},
}


class CannedRequest(BaseRequest):
    """Answers every call from a script, and records what was asked."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []
        #: each request's parameters as PTB handed them over, and its JSON body
        self.raw: list[tuple[dict[str, Any], bytes]] = []
        self.error: tuple[int, str] | None = None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def do_request(  # type: ignore[override]
        self, url: str, method: str, request_data: RequestData | None = None, **_: Any
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[1]
        # PTB sends each value as a string, the JSON of anything but a string
        params = (
            {key: _decoded(value) for key, value in (request_data.json_parameters or {}).items()}
            if request_data
            else {}
        )
        self.seen.append((name, params))
        if request_data:
            self.raw.append((request_data.parameters, request_data.json_payload))
        if name.lower() == "getme":
            user = {"id": 1, "is_bot": True, "first_name": "Bot", "username": "b"}
            return 200, json.dumps({"ok": True, "result": user}).encode()
        if self.error is not None:
            code, text = self.error
            return code, json.dumps({"ok": False, "error_code": code, "description": text}).encode()
        result: Any = MESSAGE if name.lower() in ("sendmessage", "editmessagetext") else True
        return 200, json.dumps({"ok": True, "result": result}).encode()


def _decoded(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


async def test_sends_and_edits_build_no_message_objects_and_warn_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[Any] = []
    original = Message.de_json.__func__  # type: ignore[attr-defined]

    def counting(cls: Any, data: Any, bot: Any = None) -> Any:
        built.append(data)
        return original(cls, data, bot)

    monkeypatch.setattr(Message, "de_json", classmethod(counting))
    request = CannedRequest()
    bot = ExtBot("1:x", request=request, get_updates_request=CannedRequest())
    blocked: list[int] = []

    class Blocked(ChatEvents):
        async def user_blocked(self, user_id: int) -> None:
            blocked.append(user_id)

    messenger = Messenger(bot, Pacer(0.0), Blocked())
    async with bot:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert await messenger.send(7, "<b>your</b> turn", [[("Play", "a:1")]]) == 41
            assert await messenger.edit(7, 41, "<b>his</b> turn", [[("Wait", "a:2")]])
            assert await messenger.edit(7, 41, "<b>his</b> turn", [[("Wait", "a:2")]])  # no-op
            await messenger.drop_buttons(7, 41)
            assert await messenger.delete(7, 41)
            request.error = (403, "Forbidden: bot was blocked by the user")
            assert not await messenger.edit(7, 42, "x")
    assert built == []  # not one Message built from the replies
    assert blocked == [7]
    calls = [(name.lower(), params) for name, params in request.seen if name.lower() != "getme"]
    assert [name for name, _ in calls] == [
        "sendmessage",
        "editmessagetext",
        "editmessagereplymarkup",
        "deletemessage",
        "editmessagetext",
    ]
    sent = calls[0][1]
    assert sent == {
        "chat_id": 7,
        "text": "<b>your</b> turn",
        "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True},
        "reply_markup": {"inline_keyboard": [[{"text": "Play", "callback_data": "a:1"}]]},
    }
    assert calls[1][1]["message_id"] == 41
    assert calls[2][1] == {"chat_id": 7, "message_id": 41}


async def test_object_parameters_reach_ptb_as_the_json_it_would_send() -> None:
    request = CannedRequest()
    bot = ExtBot("1:x", request=request, get_updates_request=CannedRequest())

    messenger = Messenger(bot, Pacer(0.0), ChatEvents())
    async with bot:
        request.raw.clear()
        await messenger.send(7, "Ход", [[("7♠", "a:1"), ("Сайт", "url:https://x.org")]], reply_to=3)
        await messenger.edit(7, 41, "Ход", [[("8♠", "a:2")]])
    objects = {
        "link_preview_options": {"is_disabled": True},
        "reply_markup": {
            "inline_keyboard": [
                [{"text": "7♠", "callback_data": "a:1"}, {"text": "Сайт", "url": "https://x.org"}]
            ]
        },
        "reply_parameters": {"message_id": 3, "allow_sending_without_reply": True},
    }
    (sent, sent_body), (edited, _) = request.raw
    # no object left for PTB to encode at each request (it encodes each twice)...
    assert all(not isinstance(value, dict | list) for value in [*sent.values(), *edited.values()])
    # ...and the body is the one PTB makes of the objects themselves (a string as it is,
    # anything else as its json.dumps, the whole as json.dumps of that)
    plain = {key: objects.get(key, value) for key, value in sent.items()}
    ptb = {k: v if isinstance(v, str) else json.dumps(v) for k, v in plain.items()}
    assert sent_body == json.dumps(ptb).encode()
    assert json.loads(edited["reply_markup"]) == {
        "inline_keyboard": [[{"text": "8♠", "callback_data": "a:2"}]]
    }
