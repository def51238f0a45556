"""Issue 3, "Done when" 7-8: ``make serve`` from a fresh clone, and the docker-compose file.

- A fresh ``git clone`` of this repository, ``make serve ARGS="--port N"``: the
  Makefile creates the clone's own .venv, installs Meja into it and starts the
  server on the embedded store; the Python client hosts a table there (one
  human, one bot) and plays the match to its end. Then SIGTERM stops it.
  Cost: 20-60 s, most of it ``pip install`` (from the local pip cache when warm).
- docker-compose.yml: at least two ``meja serve`` services sharing one Redis
  through the same URL (``--redis`` or ``MEJA_REDIS_URL``), each with a
  healthcheck on ``/healthz`` and starting only when Redis is healthy (which has a
  healthcheck too); a proxy in front waits for them and routes ``/ws`` (with the
  websocket upgrade) to every one of them.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from e2e_harness import ROOT, free_port
from e2e_helpers import open_table, play_out, start
from meja_client import is_match_over


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"make serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"make serve did not answer /healthz within {timeout}s")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None or shutil.which("git") is None, reason="needs make and git")
async def test_make_serve_from_a_fresh_clone(tmp_path: Path, clients: Any) -> None:
    clone = tmp_path / "meja"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    venv_bin = str(ROOT / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    env.update({"MEJA_BOT_DELAY_MIN_MS": "20", "MEJA_BOT_DELAY_MAX_MS": "60", "MEJA_READY_DELAY_MS": "20"})
    log = open(tmp_path / "make-serve.log", "wb")  # noqa: SIM115 (the process writes to it)
    proc = subprocess.Popen(
        ["make", "serve", f"ARGS=--host 127.0.0.1 --port {port}"],
        cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        await asyncio.to_thread(_wait_healthy, port, proc, 300.0)
        url = f"ws://127.0.0.1:{port}/ws"
        table = await open_table(clients, url, humans=1, bots=1)
        await start(table)
        await play_out(table.humans)
        assert is_match_over(table.host)
        assert (clone / ".venv" / "bin" / "meja").exists()
    except BaseException:
        log.flush()
        print((tmp_path / "make-serve.log").read_text(errors="replace")[-6000:])
        raise
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        log.close()


# ----------------------------------------------------------------------------- docker-compose.yml

COMPOSE = ROOT / "docker-compose.yml"


def _scalar(text: str) -> Any:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [] if not inner else [_scalar(part) for part in _split_flow(inner)]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _split_flow(text: str) -> list[str]:
    parts, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return parts


def read_compose(text: str) -> dict[str, Any]:
    """A strict reader for the block-style YAML subset compose files use (maps, lists, scalars,
    flow lists, comments). Anything else (anchors, multi-line scalars) fails loudly."""
    lines = []
    for raw in text.splitlines():
        line = re.sub(r"\s+#.*$", "", raw) if not raw.lstrip().startswith("#") else ""
        if line.strip() and line.strip() != "---":
            assert "\t" not in line[: len(line) - len(line.lstrip())], "tabs in indentation"
            assert not re.search(r"(^|\s)[&*]\w", line), f"anchors are not supported: {raw!r}"
            assert not line.rstrip().endswith(("|", ">", "|-", ">-")), f"block scalars: {raw!r}"
            lines.append((len(line) - len(line.lstrip()), line.strip()))

    def block(i: int, indent: int) -> tuple[Any, int]:
        if lines[i][1].startswith("- "):
            items: list[Any] = []
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                rest = lines[i][1][2:]
                if re.match(r"^[\w.-]+:(\s|$)", rest):
                    lines[i] = (indent + 2, rest)
                    value, i = block(i, indent + 2)
                    items.append(value)
                else:
                    items.append(_scalar(rest))
                    i += 1
            return items, i
        mapping: dict[str, Any] = {}
        while i < len(lines) and lines[i][0] == indent:
            key, _, rest = lines[i][1].partition(":")
            key = _scalar(key)
            if rest.strip():
                mapping[key] = _scalar(rest)
                i += 1
            elif i + 1 < len(lines) and lines[i + 1][0] > indent:
                mapping[key], i = block(i + 1, lines[i + 1][0])
            elif i + 1 < len(lines) and lines[i + 1][0] == indent and lines[i + 1][1].startswith("- "):
                mapping[key], i = block(i + 1, indent)
            else:
                mapping[key] = None
                i += 1
        return mapping, i

    value, end = block(0, lines[0][0])
    assert end == len(lines), f"could not read line {lines[end] if end < len(lines) else end}"
    return value


def _env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def _words(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else str(value or "")


@pytest.mark.skipif(not COMPOSE.exists(), reason="docker-compose.yml is not written yet")
def test_docker_compose_structure() -> None:
    compose = read_compose(COMPOSE.read_text())
    services = compose["services"]
    redis = [name for name, s in services.items() if str(s.get("image", "")).startswith("redis")]
    assert len(redis) == 1, f"one Redis service, not {redis}"
    redis_name = redis[0]
    assert services[redis_name].get("healthcheck", {}).get("test"), "Redis needs a healthcheck"
    meja = [name for name, s in services.items() if re.search(r"\bmeja\b.*\bserve\b", _words(s.get("command")))]
    assert len(meja) >= 2, f"at least two `meja serve` processes, to show they share the store: {meja}"
    urls = set()
    for name in meja:
        service = services[name]
        where = " ".join([_env(service).get("MEJA_REDIS_URL", ""), _words(service.get("command"))])
        found = re.search(r"redis://([\w.-]+)(:\d+)?(/\d+)?", where)
        assert found and found.group(1) == redis_name, f"{name} does not use the {redis_name} service"
        urls.add(found.group(0))
        check = _words(service.get("healthcheck", {}).get("test"))
        assert "/healthz" in check, f"{name} needs a healthcheck on /healthz, not {check!r}"
        depends = service.get("depends_on") or {}
        assert redis_name in depends, f"{name} must depend on {redis_name}"
        if isinstance(depends, dict):
            assert depends[redis_name].get("condition") == "service_healthy", name
    assert len(urls) == 1, f"the Meja services must share one Redis URL: {urls}"
    # The TURN relay for calls: time-limited credentials from the servers' shared secret.
    turn = [name for name, s in services.items() if str(s.get("image", "")).startswith("coturn/")]
    assert len(turn) == 1, f"one coturn service, not {turn}"
    conf = (ROOT / "deploy/turnserver.conf").read_text()
    assert "use-auth-secret" in conf.split() and "static-auth-secret" not in conf, "the secret stays out of files"
    assert "denied-peer-ip=127.0.0.0-127.255.255.255" in conf and "denied-peer-ip=10.0.0.0-10.255.255.255" in conf
    assert "--static-auth-secret=${MEJA_TURN_SECRET}" in _words(services[turn[0]].get("command"))
    for name in meja:
        assert _env(services[name]).get("MEJA_TURN_SECRET") == "${MEJA_TURN_SECRET:-}", name
    # Whatever fronts them (a proxy) waits for the servers and routes the websocket to all of them.
    for name, service in services.items():
        if name in meja or name == redis_name or name in turn:
            continue
        depends = service.get("depends_on") or {}
        assert set(meja) <= set(depends), f"{name} must wait for {meja}"
        for volume in service.get("volumes") or []:
            host_path = str(volume).split(":", 1)[0]
            conf = (ROOT / host_path).resolve()
            if conf.is_file() and conf.suffix == ".conf":
                text = conf.read_text()
                for server in meja:
                    assert f"{server}:" in text, f"{conf.name} does not route to {server}"
                assert "Upgrade" in text and "/ws" in text, f"{conf.name} does not upgrade /ws"


def test_compose_reader_reads_the_usual_shapes() -> None:
    text = """
services:
  redis:
    image: "redis:7-alpine"   # comment
    healthcheck:
      test: ["CMD", "redis-cli", "ping"]
  meja-1:
    environment:
      - MEJA_REDIS_URL=redis://redis:6379/0
    depends_on:
      redis:
        condition: service_healthy
    ports:
      - "8001:8000"
"""
    data = read_compose(text)
    assert data["services"]["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert data["services"]["redis"]["image"] == "redis:7-alpine"
    assert _env(data["services"]["meja-1"]) == {"MEJA_REDIS_URL": "redis://redis:6379/0"}
    assert data["services"]["meja-1"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert data["services"]["meja-1"]["ports"] == ["8001:8000"]
