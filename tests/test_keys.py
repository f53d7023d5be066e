"""cd.colab.read_key: a key comes only from where the learner asked, and never shows."""

from __future__ import annotations

import sys
import types

import pytest

from conductor import colab


def test_offline_and_env_need_no_key_read() -> None:
    assert colab.read_key("offline", "getpass") is None
    assert colab.read_key("openai", "env") is None  # cd.connect reads OPENAI_API_KEY itself


def test_getpass_asks_without_echo(monkeypatch: pytest.MonkeyPatch) -> None:
    prompts: list[str] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt: prompts.append(prompt) or " sk-test \n")
    assert colab.read_key("anthropic", "getpass") == "sk-test"
    assert prompts == ["ANTHROPIC_API_KEY (not shown): "]


def test_colab_secrets_are_read_by_the_variable_name(monkeypatch: pytest.MonkeyPatch) -> None:
    userdata = types.SimpleNamespace(get=lambda name: {"OPENAI_API_KEY": "sk-colab"}[name])
    google = types.ModuleType("google")
    google_colab = types.ModuleType("google.colab")
    google_colab.userdata = userdata  # type: ignore[attr-defined]
    google.colab = google_colab  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "google", google)
    monkeypatch.setitem(sys.modules, "google.colab", google_colab)
    assert colab.read_key("openai", "colab") == "sk-colab"
    with pytest.raises(RuntimeError, match="ANTHROPIC_API_KEY.*Notebook access") as caught:
        colab.read_key("anthropic", "colab")
    assert "sk-colab" not in str(caught.value)


def test_colab_source_outside_colab_names_the_other_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "google.colab", None)
    with pytest.raises(RuntimeError, match="inside Google Colab only.*OPENAI_API_KEY.*getpass"):
        colab.read_key("openai", "colab")


@pytest.mark.parametrize(("provider", "source"), [("openai", "file"), ("mistral", "env")])
def test_unknown_choices_are_refused_with_the_valid_ones(provider: str, source: str) -> None:
    with pytest.raises(ValueError, match="choose one of"):
        colab.read_key(provider, source)
