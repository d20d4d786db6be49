"""The lowest wing: what every other wing may use and that knows nothing of Jotto — atomic files
and locks, Ctrl-C handling, plots, annotations resolved for help()."""
