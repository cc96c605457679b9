"""The SAT layer: running python-sat solvers on CNF formulas, and the residual (reduced) encoding.

It sits below both the SAT backend and `satsudoku.proof`, so neither reaches into the other:
rules → constraints → encoders and this layer → backends and proof → commands.
"""
