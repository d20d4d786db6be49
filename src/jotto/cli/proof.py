"""``jotto check-proof``: verify a certificate of a lower bound (docs/certificates.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..game.proof_check import check_certificate, trim_certificate
from .main import BadInput
from .options import echo_json


@click.command("check-proof")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Processes sharing the check (each reads the whole file and verifies every "
    "N-th record).  (No short option: -j is --threads everywhere.)",
)
@click.option(
    "--reference",
    is_flag=True,
    help="Check with the pure-Python checker, the reference the compiled one is "
    "tested against (the same verdicts, 8-21 times slower).",
)
@click.option(
    "--trim",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="OUT",
    help="Also write to OUT the certificate of the same claim with only the records "
    "its proof uses (never over an existing file; one process).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_proof_command(file, workers, reference, trim, as_json):
    """Verify the certificate FILE of a lower bound (written by jotto solve --certificate or
    jotto.best_response(..., certificate=...)): every step is recomputed from the word list and
    the definitions, without the search.  Exit code 0: verified; 1: a step fails (printed with
    its numbers); 2: the file cannot be read (missing, not a certificate, truncated).  With
    --trim OUT, a verified certificate is also written again with only the records its proof
    uses."""
    if trim is not None and (workers > 1 or reference):
        raise BadInput(
            "--trim checks on one process with the compiled checker: "
            "it takes neither --workers nor --reference"
        )
    bar = None
    if workers == 1 and not as_json and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(unit="records", file=sys.stderr, dynamic_ncols=True, leave=False)

    def progress(done: int, records: int) -> None:
        bar.total = records
        bar.update(done - bar.n)

    kept = None
    try:
        if trim is None:
            r = check_certificate(
                file, workers=workers, progress=progress if bar else None, reference=reference
            )
        else:
            trimmed = trim_certificate(file, trim, progress=progress if bar else None)
            r, kept = trimmed.check, trimmed.kept
    finally:
        if bar is not None:
            bar.close()
    h = r.header
    if as_json:
        echo_json(
            {
                "file": str(file),
                "verified": r.ok,
                "about": r.about,
                "bound": r.bound,
                "total": r.total,
                "lower": str(r.lower),
                "lower_float": float(r.lower),
                "records": r.records,
                "words": len(h.words),
                "length": h.words.length,
                "rules": h.words.rules.name,
                "sha256": h.words.sha256,
                "first_guess": h.first_guess,
                "seconds": round(r.seconds, 3),
                "failure": r.failure,
                **({} if trim is None else {"trimmed": str(trim) if r.ok else None, "kept": kept}),
            }
        )
    elif r.ok:
        opener = f" opening with {h.first_guess!r}" if h.first_guess else ""
        click.echo(
            f"{file}: verified ({r.about}): every guesser{opener} needs at least "
            f"{r.lower} = {float(r.lower):.4f} expected guesses against the hider's "
            f"weights ({len(h.words)} words of {h.words.length} letters, rules "
            f"{h.words.rules.name}, sha256 {h.words.sha256[:12]}…); {r.records} records "
            f"checked in {r.seconds:.1f} s"
        )
        if trim is not None:
            click.echo(f"{trim}: written with the {kept} records of {r.records} the proof uses")
    else:
        click.echo(f"{file}: NOT verified: {r.failure}")
    if not r.ok:
        sys.exit(1)
