"""The expression nodes of the language, one module per family: how each runs (the closure
lang/compile.py makes) beside how it is written as code (the Python text lang/emit.py
writes for the generated module), side by side, as engine/ops/ holds the steps.

    values.py     literals, names, attributes, lists: `7`, `top`, `c.color`, `[a, b]`
    operators.py  `not`, `-`, `and`/`or`, comparisons, arithmetic, `if … then … else`
    calls.py      a primitive's call: its arguments, defaults, a choice lifted out
    lambdas.py    `x -> body`: given to a query, given to an effect, and the folds over
                  items (`any`, `all`, `count`, `filter`) written as comprehensions
    forms.py      what a primitive may be declared as, as data: a field of the game it
                  reads (Reads), a fold (Fold); its function and its text are made from that
    base.py       literals (the one writer of them), EmitError, a chain's operands
    protocols.py  what a node's run is made with (Compiling) and its text (Writing), Origin
    table.py      RUN and EMIT: each family's functions, by node type

A node's `run(c, node, pre) -> Fn` returns the closure `fn(game, env)`; `pre` gathers the
steps of choices lifted out of a statement. Its `emit(w, node, pre, ind, choose) -> str`
returns a Python expression over `g` (the game) and `e` (the variables); `pre` gathers
lines that must stand before it (a nested function), indented by `ind`.
"""
