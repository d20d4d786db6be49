"""Jotto in the browser: ``jotto serve``'s app (:mod:`.app`, a JSON API over the sessions of
:mod:`jotto.play.sessions` and one page in ``static/``), its games in memory (:mod:`.games`) and
its server (:mod:`.server`).  Needs the ``web`` extra (Starlette, uvicorn)."""
