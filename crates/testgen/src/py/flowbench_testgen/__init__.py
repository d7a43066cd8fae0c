"""flowbench's test generator helpers: signature reading (`signature`),
input generation (`values`, `gen`, `constraints`, `boundary`, `stdin_gen`,
`main`), mutants (`mutants`, `wrong_programs`) and the request loop
(`serve`, whose docstring gives the requests and replies).

flowbench embeds these files in its binary and sends them to a
`python3 -I -S` process, which imports them from memory (`loader.py`);
the tests (python/tests) import them from this directory."""
