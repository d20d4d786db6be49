"""The mean's proof run apart: work units a worker process computes (:mod:`.work_units`), the
proof split over first guesses (:mod:`.opener_search`), running units on any
:class:`concurrent.futures.Executor` (:mod:`.distributed`), and the best response on an
executor (:mod:`.executors`).  It builds on :mod:`jotto.responses.result`; nothing of
``responses`` outside this folder but the dispatcher imports it."""
