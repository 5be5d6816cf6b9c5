"""Reading Bot API parameters from a request, in every encoding clients use.

python-telegram-bot 22 posts ``application/x-www-form-urlencoded`` (``multipart/form-data``
when it uploads a file), with every value a string and objects such as ``reply_markup`` as JSON
text; other clients post a JSON body, or put the parameters in the query string. The raw values
are kept as they came, and :class:`Params` converts each on access to the type the method
expects, answering 400 where the real Bot API would.

A multipart body is read whole and split by the standard library's MIME parser, not by aiohttp's
multipart reader: that reader calls aiohttp's own deprecated ``unread_data`` when a part's
chunks fall so that one read overshoots (a ``DeprecationWarning``, an error in the tests, from a
chart's upload now and then).
"""

from __future__ import annotations

import email.parser
import email.policy
import json
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from .errors import ApiError, bad_request


async def read_params(request: web.Request) -> dict[str, Any]:
    """All parameters of a Bot API request: query string, then the body on top."""
    values: dict[str, Any] = dict(request.query)
    if request.method != "POST" or not request.can_read_body:
        return values
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except json.JSONDecodeError as error:
            raise bad_request("Bad Request: can't parse JSON request body") from error
        if not isinstance(body, dict):
            raise bad_request("Bad Request: request body must be a JSON object")
        values.update(body)
    elif request.content_type == "multipart/form-data":
        values.update(_multipart(request.headers["Content-Type"], await request.read()))
    else:
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                values[key] = value.file.read()
                values[f"{key}_filename"] = value.filename
            else:
                values[key] = value if isinstance(value, str) else bytes(value)
    return values


def _multipart(content_type: str, body: bytes) -> dict[str, Any]:
    """The fields of a ``multipart/form-data`` body: a text field as a string, a file as its
    bytes, with its name under ``<field>_filename``."""
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise bad_request("Bad Request: can't parse multipart request body")
    values: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(content, bytes):
            continue
        filename = part.get_filename()
        if filename is None:
            values[name] = content.decode(part.get_content_charset() or "utf-8")
        else:
            values[name] = content
            values[f"{name}_filename"] = filename
    return values


class Params:
    """Typed, validating access to one request's parameters."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    def __contains__(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def _missing(self, name: str) -> ApiError:
        if name == "chat_id":
            return bad_request("Bad Request: chat_id is empty")
        if name == "message_id":
            return bad_request("Bad Request: message identifier is not specified")
        return bad_request(f"Bad Request: parameter {name} is required")

    def optional_str(self, name: str) -> str | None:
        """A string parameter, or ``None`` when absent."""
        value = self.values.get(name)
        if value is None:
            return None
        if isinstance(value, bytes):
            return value.decode("utf-8")
        return value if isinstance(value, str) else json.dumps(value)

    def required_str(self, name: str) -> str:
        """A required string parameter."""
        value = self.optional_str(name)
        if value is None:
            raise self._missing(name)
        return value

    def optional_int(self, name: str) -> int | None:
        """An integer parameter (``"12"`` and ``12.0`` both read as 12), or ``None``."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise bad_request(f"Bad Request: field {name!r} must be a number")
        if isinstance(value, int):
            return value
        try:
            return int(float(value))
        except (TypeError, ValueError) as error:
            raise bad_request(f"Bad Request: field {name!r} must be a number") from error

    def required_int(self, name: str) -> int:
        """A required integer parameter."""
        value = self.optional_int(name)
        if value is None:
            raise self._missing(name)
        return value

    def optional_float(self, name: str) -> float | None:
        """A number parameter, or ``None``."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError) as error:
            raise bad_request(f"Bad Request: field {name!r} must be a number") from error

    def flag(self, name: str, default: bool = False) -> bool:
        """A boolean parameter: JSON ``true``/``false``, or ``"true"``/``"1"`` in a form."""
        value = self.values.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        text = str(value).lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        raise bad_request(f"Bad Request: field {name!r} must be a boolean")

    def optional_json(self, name: str) -> Any:
        """A parameter holding an object or array, given as JSON text or inline in a JSON body."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as error:
                raise bad_request(f"Bad Request: can't parse {name} JSON object") from error
        return value

    def optional_object(self, name: str) -> dict[str, Any] | None:
        """A JSON object parameter, or ``None``."""
        value = self.optional_json(name)
        if value is not None and not isinstance(value, dict):
            raise bad_request(f"Bad Request: field {name!r} must be an object")
        return value

    def optional_list(self, name: str) -> list[Any] | None:
        """A JSON array parameter, or ``None``."""
        value = self.optional_json(name)
        if value is not None and not isinstance(value, list):
            raise bad_request(f"Bad Request: field {name!r} must be an array")
        return value

    def chat_id(self, name: str = "chat_id") -> int | str:
        """A chat id: an integer, or ``@username`` of a public chat."""
        value = self.values.get(name)
        if value is None or value == "":
            raise self._missing(name)
        if isinstance(value, str) and value.startswith("@"):
            return value
        return self.required_int(name)
