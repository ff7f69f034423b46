"""The routes of the web app, one :class:`fastapi.APIRouter` a concern (INTERFACES.md §5, §7
and §9): games (create, read, the lobby's facts), moves (play, preview, racks, hints), games
that end early (resign, abort), what comes after a game (record, analysis, records viewed,
rematch), the live WebSocket, and the pages. :func:`binscrabble.web.app.create_app`
includes each; a new concern is a new module here, included there, with its error statuses
in :mod:`binscrabble.web.responses`."""
