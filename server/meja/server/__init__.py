"""The table server: asyncio, websockets, HTTP, sessions, tables, timers, signals.

Entry point: ``meja serve`` (:mod:`.main`). The pieces, outside in:

- :mod:`.app`: the process (store, tasks, websocket server, HTTP, shutdown);
- :mod:`.session`: one connection (rate limit, outbox, what each message does);
- :mod:`.hub`: this process's cache of tables and the fan-out of changes;
- :mod:`.service`: requests and timers as committed changes;
- :mod:`.tables`: the pure transitions of a table and its timer plan;
- :mod:`.records`: the record and log-entry layout in the store;
- :mod:`.timers`: the timer runner and the heartbeat;
- :mod:`.rooms`: room codes, table ids, tokens;
- :mod:`.settings`: every limit and timeout.

Imported lazily by :mod:`meja.cli`; nothing here runs on import.
"""
