"""A 200 whose body cannot be read (cut off mid-JSON, an HTML page from a proxy) is a MalformedResponseError
naming the server, on every API, never a bare JSONDecodeError from deep inside the SDK."""

from __future__ import annotations

import anthropic
import httpx2
import openai
import pytest

import conductor as cd
from wire import APIS, OPENAI_APIS

CUT_OFF = (b'{"id": "resp_1", "object": "response", "output": [', "application/json")
HTML = (b"<html><body>502 Bad Gateway</body></html>", "text/html")


def client(api: str, body: tuple[bytes, str]):
    content, kind = body

    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=content, headers={"content-type": kind})

    http = httpx2.Client(transport=httpx2.MockTransport(handle))
    if api in OPENAI_APIS:
        return openai.OpenAI(api_key="test", base_url="http://proxy.invalid/v1", http_client=http, max_retries=0)
    return anthropic.Anthropic(api_key="test", base_url="http://proxy.invalid", http_client=http, max_retries=0)


@pytest.mark.parametrize("body", [CUT_OFF, HTML], ids=["cut-off", "html"])
@pytest.mark.parametrize("api", APIS)
def test_an_unreadable_200_is_a_malformed_response_naming_the_server(api, body):
    llm = cd.connect(client(api, body), model="gpt-4.1-mini" if api in OPENAI_APIS else "claude-haiku-4-5", api=api)
    with pytest.raises(cd.MalformedResponseError, match=rf"the {api} response from http://proxy.invalid"):
        llm.run("Hi")
