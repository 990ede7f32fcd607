"""`advisor serve`: loopback by default, file dialogs confined to one folder, settings never written,
and the app's first screen in a real (headless) browser (issues 13.6 and 19)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from textual.widgets import Static

from advisor.cli import serve as serve_cli
from advisor.cli.main import build_parser
from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.settings import settings_path
from tests.test_tui_helpers import fill, pilot_test, plain, running

ROOT = Path(__file__).resolve().parent.parent
FIRST_SCREEN = ("advisor", "Model", "Job", "Tokens")
"""Words of the app's first screen, as the browser receives them."""


def test_the_default_bind_address_is_loopback():
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == serve_cli.DEFAULT_PORT


def test_another_address_needs_the_flag_and_warns(monkeypatch, capsys, tmp_path):
    started = {}

    class FakeServer:
        def __init__(self, command, **kwargs):
            started.update(kwargs, command=command)

        def serve(self):
            started["served"] = True

    monkeypatch.setattr("textual_serve.server.Server", FakeServer)
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "8123", "--root", str(tmp_path)]
    )
    assert serve_cli.serve(args) == 0
    out, err = capsys.readouterr()
    assert "WARNING" in err and "anyone who can reach port 8123" in err
    assert "http://0.0.0.0:8123" in out
    assert started["host"] == "0.0.0.0" and started["served"]
    assert str(tmp_path.resolve()) in started["command"]


@pytest.mark.parametrize("where", ["parent", "absolute", "symlink", "home"])
@pilot_test
async def test_a_served_app_refuses_files_outside_its_folder(tmp_path: Path, where: str):
    root = tmp_path / "shared"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside)
    typed = {
        "parent": "../x.toml",
        "absolute": str(outside / "x.toml"),
        "symlink": "link/x.toml",
        "home": "~/x.toml",
    }[where]
    async with running(file_root=root) as (app, pilot):
        await pilot.press("ctrl+s")
        await fill(pilot, "#path", typed)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PathDialog)
        error = plain(app.screen.query_one("#dialog-error", Static))
        assert "Refused" in error and str(outside) not in error
        assert not list(outside.iterdir()) and not (tmp_path / "x.toml").exists()
        await fill(pilot, "#path", "inside.toml")  # a name in the folder is fine
        await pilot.press("enter")
        await pilot.pause()
        assert (root / "inside.toml").exists()


@pilot_test
async def test_a_served_app_never_writes_the_settings(tmp_path: Path):
    async with running(file_root=tmp_path) as (app, pilot):
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == "textual-light"
        assert not settings_path().exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"advisor serve did not listen on {port}")


async def _first_screen_in_browser(chromium: str, url: str, debug_port: int, shot: Path) -> str:
    """Open `url` in headless Chromium, wait for the app's output to reach the page, take a screenshot,
    and return the text the page received over its websocket."""
    import aiohttp

    profile = tempfile.mkdtemp()
    browser = subprocess.Popen(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            f"--user-data-dir={profile}",
            f"--remote-debugging-port={debug_port}",
            "--window-size=1300,800",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                try:
                    async with http.get(f"http://127.0.0.1:{debug_port}/json/list") as response:
                        pages = [p for p in await response.json() if p["type"] == "page"]
                        break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("chromium did not start")
            async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as cdp:
                counter = iter(range(1, 10_000))

                async def call(method: str, **params: object) -> int:
                    number = next(counter)
                    await cdp.send_json({"id": number, "method": method, "params": params})
                    return number

                await call("Network.enable")
                await call("Page.navigate", url=url)
                received: list[str] = []
                screenshot_id = None
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    try:
                        message = await asyncio.wait_for(cdp.receive(), 1)
                    except TimeoutError:
                        continue
                    data = json.loads(message.data)
                    if data.get("method") == "Network.webSocketFrameReceived":
                        frame = data["params"]["response"]
                        payload = frame["payloadData"]
                        raw = base64.b64decode(payload) if frame["opcode"] == 2 else payload.encode()
                        received.append(raw.decode("utf-8", "replace"))
                        if screenshot_id is None and all(w in "".join(received) for w in FIRST_SCREEN):
                            await asyncio.sleep(1.0)  # let the page draw it
                            screenshot_id = await call("Page.captureScreenshot")
                    elif screenshot_id is not None and data.get("id") == screenshot_id:
                        shot.write_bytes(base64.b64decode(data["result"]["data"]))
                        break
                return "".join(received)
    finally:
        browser.terminate()
        browser.wait(10)
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="headless Chromium is not installed (apt-get install -y chromium): the browser test needs it",
)
def test_the_served_app_shows_its_first_screen_in_headless_chromium(tmp_path: Path):
    port, debug_port = _free_port(), _free_port()
    env = {**os.environ, "ADVISOR_CONFIG_DIR": str(tmp_path / "config")}
    server = subprocess.Popen(
        [sys.executable, "-m", "advisor.cli.main", "serve", "--port", str(port), "--root", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        _wait_for_port(port, 15)
        shot = tmp_path / "first-screen.png"
        chromium = shutil.which("chromium")
        assert chromium is not None
        text = asyncio.run(_first_screen_in_browser(chromium, f"http://127.0.0.1:{port}", debug_port, shot))
        for words in FIRST_SCREEN:
            assert words in text, f"{words!r} not in what the browser received"
        assert "Traceback" not in text
        assert shot.exists() and shot.stat().st_size > 10_000
    finally:
        server.terminate()
        try:
            out = server.communicate(timeout=10)[0].decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            server.kill()
            out = ""
    assert f"http://127.0.0.1:{port}" in out
