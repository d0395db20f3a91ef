"""A client for OpenAI-compatible `/chat/completions` endpoints (a local vLLM server, for example).

Used by the `openai` evaluation policy and by the synthesizer's optional teacher rewrite.
Standard library only: one POST per request, retried with backoff on connection errors, 429 and
5xx answers.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

__all__ = ["ChatEndpoint", "EndpointError"]


class EndpointError(RuntimeError):
    """The chat-completions endpoint failed after retries."""


class ChatEndpoint:
    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, timeout: float = 120.0,
                 retries: int = 3) -> None:
        if not base_url or not model:
            raise ValueError("a chat endpoint needs a base URL and a model name")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.retries = retries

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST `body` (with this endpoint's model) and return the decoded response."""
        data = json.dumps({"model": self.model, **body}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        problem = ""
        for attempt in range(self.retries):
            try:
                request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read())
            except urllib.error.HTTPError as exc:
                problem = f"HTTP {exc.code}: {exc.read()[:300].decode('utf-8', 'replace')}"
                if exc.code < 500 and exc.code != 429:
                    break
            except (urllib.error.URLError, TimeoutError, json.JSONDecodeError, KeyError) as exc:
                problem = str(exc)
            if attempt + 1 < self.retries:
                time.sleep(min(8.0, 0.5 * 2**attempt))
        raise EndpointError(f"{self.url}: {problem}")

    def check(self, timeout: float = 10.0) -> None:
        """Raise an EndpointError if nothing answers at this endpoint's address, or it refuses the key.

        One GET of `<base URL>/models`: any HTTP answer but 401 and 403 shows a server is there
        (an endpoint without that route answers 404, which will do).
        """
        base = self.url.removesuffix("/chat/completions")
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            with urllib.request.urlopen(urllib.request.Request(base + "/models", headers=headers),
                                        timeout=min(timeout, self.timeout)):
                return
        except urllib.error.HTTPError as exc:
            if exc.code in (401, 403):
                raise EndpointError(f"{base} refused the request (HTTP {exc.code}): check the API key") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise EndpointError(f"cannot reach the model endpoint {base}: {reason}") from None

    def message(self, body: dict[str, Any]) -> dict[str, Any]:
        """The first choice's message of a completion, or an EndpointError if there is none."""
        answer = self.complete(body)
        try:
            return answer["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise EndpointError(f"{self.url}: the answer has no choices[0].message") from None
