"""The application's routes, one router per concern: :mod:`.accounts`, :mod:`.ratings` (players, bots, the
ladder), :mod:`.rooms` (the lobby, tables and their host's actions, what can be played), :mod:`.records`
(finished games and their replays), :mod:`.table` (the table's WebSocket) and :mod:`.pages` (the browser
client's pages and files). They share the server's state through :class:`bigtwo.server.context.ServerContext`,
a dependency, so a route is a plain module-level function that a reader can find by its path."""
