"""The bitmask search's kernel: candidate masks, propagation and branching, below the backend
that runs the search (`backends.bitmask`), the proof mode that logs it (`proof.search_proof`)
and the research tools that walk it (counting, estimates, true candidates, generation)."""
