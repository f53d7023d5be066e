"""The library's warnings in a notebook: plain output lines, once, and nothing outside a kernel."""

from __future__ import annotations

import contextlib
import importlib
import logging
import subprocess
import sys

import pytest

import conductor
from conductor import display

LOGGER = logging.getLogger("conductor")


@pytest.fixture
def clean_logging():
    """No handler of ours before and after the test."""
    display.notebook_logging(False)
    yield
    display.notebook_logging(False)


@pytest.fixture
def in_kernel(monkeypatch, clean_logging):
    """Pretend to run in a Jupyter kernel."""
    monkeypatch.setattr(display, "in_notebook", lambda: True)


@contextlib.contextmanager
def bare_root():
    """A root logger without handlers, as in a fresh kernel.

    pytest's log capture adds its handlers to the root logger when the test body
    starts, so they are set aside here, inside the test, and put back after.
    """
    root = logging.getLogger()
    saved = root.handlers[:]
    for handler in saved:
        root.removeHandler(handler)
    try:
        yield
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)


def ours() -> list[logging.Handler]:
    return [h for h in LOGGER.handlers if h.get_name() == display.HANDLER_NAME]


def test_a_warning_goes_to_stdout_once_as_a_plain_line(in_kernel, capsys):
    with bare_root():
        display._attach_in_notebook()
        logging.getLogger("conductor.guards").warning("call %d of %s with the same arguments: not run", 3, "suggest_clothing")
        out, err = capsys.readouterr()
        assert out == "conductor: call 3 of suggest_clothing with the same arguments: not run\n"
        assert err == ""


def test_errors_stay_marked_and_info_stays_out(in_kernel, capsys):
    with bare_root():
        display._attach_in_notebook()
        log = logging.getLogger("conductor.orchestrator")
        log.error("the budget file is unreadable")
        log.critical("giving up")
        log.info("a request line")
        out, err = capsys.readouterr()
        assert out == "conductor error: the budget file is unreadable\nconductor critical: giving up\n"
        assert err == ""


def test_attaching_again_or_reimporting_never_doubles_a_line(in_kernel, capsys):
    with bare_root():
        first = display.notebook_logging()
        assert display.notebook_logging() is first
        display._attach_in_notebook()
        importlib.reload(conductor)  # runs the import-time hook again
        assert len(ours()) == 1
        logging.getLogger("conductor.tools").warning("once")
        assert capsys.readouterr().out == "conductor: once\n"


def test_reloading_the_display_module_keeps_one_handler(in_kernel, capsys):
    with bare_root():
        display.notebook_logging()
        reloaded = importlib.reload(display)
        try:
            reloaded.notebook_logging()
            assert len(ours()) == 1
            logging.getLogger("conductor.tools").warning("once")
            assert capsys.readouterr().out == "conductor: once\n"
            reloaded.notebook_logging(False)
            assert ours() == []
        finally:
            reloaded.notebook_logging(False)


def test_turned_off_the_warning_goes_where_python_sends_it(in_kernel, capsys):
    with bare_root():
        display._attach_in_notebook()
        display.notebook_logging(False)
        assert ours() == []
        logging.getLogger("conductor.guards").warning("back on stderr")
        out, err = capsys.readouterr()
        assert out == ""
        assert err == "back on stderr\n"  # Python's last-resort handler


def test_a_root_handler_of_the_users_shows_the_line_alone(in_kernel, capsys):
    """After logging.basicConfig(...) the user's format wins and the line is not printed twice."""
    with bare_root():
        display._attach_in_notebook()
        root = logging.getLogger()
        users = logging.StreamHandler(sys.stderr)
        users.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(users)
        logging.getLogger("conductor.guards").warning("seen once")
        out, err = capsys.readouterr()
        assert out == ""
        assert err == "WARNING conductor.guards: seen once\n"


def test_without_propagation_to_root_our_line_is_still_printed(in_kernel, capsys, monkeypatch):
    with bare_root():
        display._attach_in_notebook()
        logging.getLogger().addHandler(logging.NullHandler())
        monkeypatch.setattr(LOGGER, "propagate", False)
        logging.getLogger("conductor.guards").warning("root never sees it")
        assert capsys.readouterr().out == "conductor: root never sees it\n"


def test_a_handler_of_the_lesson_still_collects_every_record(in_kernel, capsys):
    """Lesson 05 adds a handler to conductor.orchestrator at INFO to keep the JSON log lines."""
    with bare_root():
        display._attach_in_notebook()

        class KeepLines(logging.Handler):
            def __init__(self):
                super().__init__(logging.INFO)
                self.lines = []

            def emit(self, record):
                self.lines.append(record.getMessage())

        keep = KeepLines()
        log = logging.getLogger("conductor.orchestrator")
        level = log.level
        log.addHandler(keep)
        log.setLevel(logging.INFO)
        try:
            log.info('{"event": "request"}')
            log.warning("ALERT tool failure rate 11.4% is above 5%")
        finally:
            log.removeHandler(keep)
            log.setLevel(level)
        assert keep.lines == ['{"event": "request"}', "ALERT tool failure rate 11.4% is above 5%"]
        assert capsys.readouterr().out == "conductor: ALERT tool failure rate 11.4% is above 5%\n"


def test_nothing_is_attached_outside_a_kernel(clean_logging):
    assert display.in_notebook() is False  # pytest is no kernel
    display._attach_in_notebook()
    assert ours() == []


def test_a_script_keeps_pythons_default_logging():
    script = (
        "import logging, conductor, conductor.display as d\n"
        "assert not d.in_notebook()\n"
        "assert logging.getLogger('conductor').handlers == []\n"
        "logging.getLogger('conductor.guards').warning('plain stderr')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "plain stderr\n")


def test_in_notebook_needs_a_kernel_shell(monkeypatch):
    class ZMQInteractiveShell:
        pass

    class Shell(ZMQInteractiveShell):  # Colab's shell subclasses the kernel's
        pass

    class TerminalInteractiveShell:
        pass

    class FakeIPython:
        shell = None

        @classmethod
        def get_ipython(cls):
            return cls.shell

    monkeypatch.setitem(sys.modules, "IPython", FakeIPython)
    monkeypatch.setitem(sys.modules, "ipykernel", object())
    for shell, expected in [(None, False), (TerminalInteractiveShell(), False), (ZMQInteractiveShell(), True), (Shell(), True)]:
        FakeIPython.shell = shell
        assert display.in_notebook() is expected
    monkeypatch.delitem(sys.modules, "ipykernel")
    FakeIPython.shell = ZMQInteractiveShell()
    assert display.in_notebook() is False
