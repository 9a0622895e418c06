"""What an operator's tools ask: is the process alive (``/healthz``), should it be sent players (``/readyz``),
and what is it doing (``/metrics``, Prometheus' text format).

Each server process answers for itself: with ``--workers N`` or several machines, each process listens on its own
port, so Prometheus scrapes each one (its ``instance`` label tells them apart) and no multiprocess collection
is needed; a reverse proxy should not route ``/metrics`` to the public.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from sqlalchemy import text

from bigtwo.server.context import Context, ServerContext

try:
    from prometheus_client import CollectorRegistry, Histogram, generate_latest
    from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
except ImportError:  # pragma: no cover - the server extra installs it
    CollectorRegistry = None  # type: ignore[assignment,misc]

router = APIRouter()
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


@router.get("/healthz", tags=["server"], include_in_schema=False)
async def healthz() -> dict[str, str]:
    """The process answers (its event loop runs)."""
    return {"status": "alive"}


@router.get("/readyz", tags=["server"], include_in_schema=False)
async def readyz(ctx: Context) -> Response:
    """Send it players: started (its tables resumed or adopted), not shutting down, and its database answers."""
    if not ctx.ready or ctx.rooms.draining:
        return JSONResponse({"status": "not ready", "why": "starting or shutting down"}, status_code=503)
    try:
        import asyncio

        await asyncio.wait_for(asyncio.to_thread(_ping, ctx), 2)
    except Exception:
        return JSONResponse({"status": "not ready", "why": "the database does not answer"}, status_code=503)
    return JSONResponse({"status": "ready"})


def _ping(ctx: ServerContext) -> None:
    with ctx.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


@router.get("/metrics", tags=["server"], include_in_schema=False)
async def metrics(request: Request) -> Response:
    """This process's metrics, in Prometheus' text format."""
    registry = getattr(request.app.state, "metrics", None)
    if registry is None:
        return PlainTextResponse("metrics need prometheus-client: pip install 'bigtwo[server]'", status_code=501)
    return Response(generate_latest(registry.registry), media_type="text/plain; version=0.0.4; charset=utf-8")


class Metrics:
    """One application's metrics: a move-latency histogram it observes, and the rest read from the rooms at each
    scrape (tables, connections, actions stored, leases held, bot jobs waiting)."""

    def __init__(self, ctx: ServerContext):
        self.ctx = ctx
        self.registry = CollectorRegistry(auto_describe=True)
        self.latency = Histogram(
            "bigtwo_move_seconds",
            "time from a move's arrival to its answer (stored, and every client told)",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(self)

    def observe_move(self, started: float) -> None:
        self.latency.observe(time.perf_counter() - started)

    def collect(self) -> Iterator[Any]:
        rooms = self.ctx.rooms
        tables = GaugeMetricFamily("bigtwo_tables", "tables this process serves, by status", labels=["status"])
        counts: dict[str, int] = {}
        for r in list(rooms.rooms.values()):
            counts[r.status] = counts.get(r.status, 0) + 1
        for status in ("waiting", "playing", "paused", "over"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        yield GaugeMetricFamily(
            "bigtwo_connections", "WebSockets open", value=sum(len(r.conns) for r in list(rooms.rooms.values()))
        )
        yield CounterMetricFamily("bigtwo_actions", "accepted actions stored", value=rooms.journal.actions)
        yield CounterMetricFamily("bigtwo_commits", "database transactions of the journal", value=rooms.journal.commits)
        yield GaugeMetricFamily(
            "bigtwo_leases", "tables held under a lease by this process", value=len(rooms.claimed_at)
        )
        yield CounterMetricFamily("bigtwo_takeovers", "tables this process took over", value=rooms.takeovers)
        yield GaugeMetricFamily("bigtwo_bot_queue", "bot jobs waiting for a worker", value=rooms.bots.queued)
        yield GaugeMetricFamily("bigtwo_ready", "1 while the process takes players", value=int(self.ctx.ready))


def install_metrics(app: Any, ctx: ServerContext) -> Metrics | None:
    """Metrics for an application (None without prometheus-client)."""
    if CollectorRegistry is None:
        return None
    app.state.metrics = Metrics(ctx)
    return app.state.metrics
