"""Human-style solving: `state` holds the pencil marks, one module per technique family
(singles, locked, subsets, fish, wings, chains, forcing, restrictions) finds steps, `solver`
applies the easiest in turn and `rating` turns the path into an SE-like difficulty."""
