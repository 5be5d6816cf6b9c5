"""Errors of the fake Bot API, worded as the real Telegram words them.

An :class:`ApiError` raised anywhere while a method runs becomes the Bot API error reply
``{"ok": false, "error_code": ..., "description": ..., "parameters": ...}``. The constants below
are the descriptions the real server sends, so python-telegram-bot raises the same exception
class (``BadRequest``, ``Forbidden``, ``ChatMigrated``, ``RetryAfter``...) with the same text.

:class:`SimulationError` is different: it is raised in the *test* when the test asks a simulated
user to do something no real user could do (press a button that is not there, write in a chat
they are not in).
"""

from __future__ import annotations

from typing import Any

MESSAGE_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a specified content and reply markup of the message"
)
MESSAGE_TO_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MESSAGE_TO_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
MESSAGE_TO_REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
MESSAGE_CANT_BE_EDITED = "Bad Request: message can't be edited"
MESSAGE_CANT_BE_DELETED = "Bad Request: message can't be deleted"
MESSAGE_TEXT_EMPTY = "Bad Request: message text is empty"
MESSAGE_TOO_LONG = "Bad Request: message is too long"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_TEXT_INVALID = "Bad Request: BUTTON_TEXT_INVALID"
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
BUTTON_WITHOUT_ACTION = (
    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline "
    "keyboard"
)
REPLY_MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
ANSWER_TEXT_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
GROUP_UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BOT_BLOCKED = "Forbidden: bot was blocked by the user"
BOT_NOT_MEMBER = "Forbidden: bot is not a member of the {kind} chat"
BOT_KICKED = "Forbidden: bot was kicked from the {kind} chat"
CANT_PARSE_ENTITIES = "Bad Request: can't parse entities: {detail}"
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
TERMINATED_BY_OTHER_GET_UPDATES = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is "
    "running"
)
UNAUTHORIZED = "Unauthorized"
TOO_MANY_REQUESTS = "Too Many Requests: retry after {seconds}"


class ApiError(Exception):
    """A Bot API error reply: HTTP status, description and optional ``parameters``."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        """The body of the error reply, exactly as the Bot API sends it."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(description: str, parameters: dict[str, Any] | None = None) -> ApiError:
    """A 400 error; ``description`` must already start with ``Bad Request:``."""
    return ApiError(400, description, parameters)


def forbidden(description: str) -> ApiError:
    """A 403 error; ``description`` must already start with ``Forbidden:``."""
    return ApiError(403, description)


def not_found(method: str) -> ApiError:
    """The 404 a method the fake does not implement gets, so missing support is visible."""
    return ApiError(404, f"Not Found: method {method!r} is not implemented by the fake Bot API")


def too_many_requests(retry_after: int) -> ApiError:
    """A 429 flood-control error carrying ``parameters.retry_after``."""
    return ApiError(
        429, TOO_MANY_REQUESTS.format(seconds=retry_after), {"retry_after": retry_after}
    )


class SimulationError(Exception):
    """A test asked a simulated user to do something a real Telegram user cannot do."""


class NoSuchButton(SimulationError):
    """The pressed callback data is not on any button the message currently shows."""
